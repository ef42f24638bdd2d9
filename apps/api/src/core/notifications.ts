/** The mail and phone ports every service may use (Deps); modules/shared/notifications implements them. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Where mail goes, for logs and `/readyz`: `smtp` or `outbox`. */
  readonly transport: 'smtp' | 'outbox';
}

/** Sends verification codes to phones: an SMS gateway when the operator configured one, the server log otherwise. */
export interface PhoneNotifier {
  sendCode(phone: string, code: string): Promise<void>;
  /** `webhook` and `email` reach the phone; `log` only writes the code where the operator can read it. */
  readonly transport: 'webhook' | 'email' | 'log';
}

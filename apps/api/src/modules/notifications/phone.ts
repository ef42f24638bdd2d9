import type { Logger } from 'pino';

/** Sends verification codes to phones. An SMS gateway plugs in here; the default writes to the log. */
export interface PhoneNotifier {
  sendCode(phone: string, code: string): Promise<void>;
  readonly transport: string;
}

/**
 * Development and single-operator installs: the code appears in the server log (at warn level so it is visible
 * under the default LOG_LEVEL) for the operator to relay. Never use it where operators must not see codes.
 */
export function createLogPhoneNotifier(logger: Logger): PhoneNotifier {
  return {
    transport: 'log',
    async sendCode(phone, code) {
      logger.warn(
        { phone, code, notifier: 'log' },
        'phone verification code (log notifier: no SMS gateway configured)',
      );
    },
  };
}

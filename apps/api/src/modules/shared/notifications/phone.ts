import type { Logger } from 'pino';
import type { Config } from '../../../config';
import { AppError } from '../../../errors';
import type { Mailer, PhoneNotifier } from '../../../core/notifications';

export type { PhoneNotifier } from '../../../core/notifications';

/** How long the gateway may take before the code counts as not sent. */
const GATEWAY_TIMEOUT_MS = 10_000;

export const phoneCodeMessage = (code: string) =>
  `Your Attestly verification code is ${code}. It expires in 10 minutes. Do not share it.`;

const deliveryFailed = () =>
  new AppError(
    502,
    'phone.delivery_failed',
    'We could not send the code to your phone. Please try again later.',
  );

/** The configured notifier (ATTESTLY_SMS_WEBHOOK_URL or ATTESTLY_SMS_EMAIL_DOMAIN), else the log notifier. */
export function createPhoneNotifier(config: Config, logger: Logger, mailer: Mailer): PhoneNotifier {
  if (config.sms?.kind === 'webhook') return createWebhookPhoneNotifier(config.sms, logger);
  if (config.sms?.kind === 'email') return createEmailPhoneNotifier(config.sms.domain, mailer, logger);
  return createLogPhoneNotifier(logger);
}

/**
 * A generic HTTPS gateway: most SMS providers take one POST with the number and the text in a JSON or form body, so
 * the operator writes the body as a template with `{{phone}}`, `{{code}}` and `{{message}}`, each filled in escaped
 * for the body's type (a JSON string's content, or a form value), and an optional Authorization header.
 */
export function createWebhookPhoneNotifier(
  gateway: Extract<NonNullable<Config['sms']>, { kind: 'webhook' }>,
  logger: Logger,
): PhoneNotifier {
  const escape =
    gateway.contentType === 'application/json'
      ? (value: string) => JSON.stringify(value).slice(1, -1)
      : (value: string) => encodeURIComponent(value);
  return {
    transport: 'webhook',
    async sendCode(phone, code) {
      const values: Record<string, string> = { phone, code, message: phoneCodeMessage(code) };
      const body = gateway.bodyTemplate.replace(/\{\{(phone|code|message)\}\}/g, (_m, key: string) =>
        escape(values[key] ?? ''),
      );
      const headers: Record<string, string> = {
        'Content-Type': gateway.contentType,
        'User-Agent': 'Attestly',
      };
      if (gateway.authorization) headers.Authorization = gateway.authorization;
      let status: number;
      try {
        const response = await fetch(gateway.url, {
          method: 'POST',
          headers,
          body,
          redirect: 'error',
          signal: AbortSignal.timeout(GATEWAY_TIMEOUT_MS),
        });
        status = response.status;
        // Drain the body so the connection can be reused; its content is the gateway's business.
        await response.arrayBuffer().catch(() => undefined);
      } catch (error) {
        logger.error({ err: error, gateway: new URL(gateway.url).host }, 'SMS gateway unreachable');
        throw deliveryFailed();
      }
      if (status < 200 || status >= 300) {
        logger.error({ status, gateway: new URL(gateway.url).host }, 'SMS gateway refused the message');
        throw deliveryFailed();
      }
    },
  };
}

/** E-mail-to-SMS: many carriers and SMS providers turn mail to `<number>@<their domain>` into a text message. */
export function createEmailPhoneNotifier(domain: string, mailer: Mailer, logger: Logger): PhoneNotifier {
  return {
    transport: 'email',
    async sendCode(phone, code) {
      const digits = phone.replace(/\D/g, '');
      try {
        await mailer.send({
          to: `${digits}@${domain}`,
          subject: 'Attestly code',
          text: phoneCodeMessage(code),
        });
      } catch (error) {
        logger.error({ err: error, domain }, 'e-mail-to-SMS gateway refused the message');
        throw deliveryFailed();
      }
    },
  };
}

/**
 * Development and single-operator installs: the code appears in the server log (at warn level so it is visible
 * under the default LOG_LEVEL) for the operator to relay. The user is told so; never use it where operators must not
 * see codes.
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

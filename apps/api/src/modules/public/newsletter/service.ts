import { UniqueConstraintError } from 'sequelize';
import { deriveKey, hmacSha256, randomToken } from '../../../lib/crypto';
import { AppError, tooManyRequests } from '../../../errors';
import type { Deps } from '../../../core/deps';
import type { AuditService } from '../../shared/audit/service';
import type { RateLimiter } from '../../shared/rate-limit/service';

const CONFIRM_TTL_MS = 7 * 24 * 60 * 60_000;

/**
 * Newsletter sign-up with double opt-in: subscribing stores the address unconfirmed and mails a confirmation link;
 * only that link confirms it. Every mail carries an unsubscribe link. The answer never says whether an address was
 * already on the list.
 */
export function createNewsletterService(
  { db, config, clock, mailer, logger }: Deps,
  { audit, limiter }: { audit: AuditService; limiter: RateLimiter },
) {
  const { NewsletterSubscriber, OneTimeToken } = db.models;
  const key = deriveKey(config.masterKey, 'newsletter');
  const hash = (secret: string) => hmacSha256(key, secret);

  return {
    async subscribe(email: string, origin: { ip: string | null; userAgent: string | null }) {
      const budget = await limiter.hit({ name: 'newsletter:email', limit: 3, windowMs: 60 * 60_000 }, email);
      if (!budget.allowed)
        throw tooManyRequests(
          'Too many requests for this address. Please try again later.',
          budget.retryAfterSeconds,
        );
      let subscriber = await NewsletterSubscriber.findOne({ where: { email } });
      if (subscriber?.confirmed_at && !subscriber.unsubscribed_at) return;
      const unsubscribe = randomToken(24);
      const now = clock.now();
      try {
        if (subscriber) {
          await subscriber.update({
            unsubscribe_hash: hash(unsubscribe),
            unsubscribed_at: null,
            confirmed_at: null,
          });
        } else {
          subscriber = await NewsletterSubscriber.create({
            email,
            unsubscribe_hash: hash(unsubscribe),
            confirmed_at: null,
            unsubscribed_at: null,
          });
        }
      } catch (error) {
        if (error instanceof UniqueConstraintError) return;
        throw error;
      }
      const confirm = randomToken(32);
      await OneTimeToken.destroy({
        where: { purpose: 'newsletter_confirm', subject_id: subscriber.id, used_at: null },
      });
      await OneTimeToken.create({
        purpose: 'newsletter_confirm',
        subject_id: subscriber.id,
        token_hash: hash(confirm),
        target: email,
        expires_at: new Date(now.getTime() + CONFIRM_TTL_MS),
        used_at: null,
      });
      void mailer
        .send({
          to: email,
          subject: 'Confirm your subscription to Attestly News & Insights',
          text:
            `Hello,\n\nPlease confirm that you want to receive Attestly's compliance and industry news at this address:\n` +
            `${config.publicUrl}/newsletter/confirm?token=${encodeURIComponent(confirm)}\n\n` +
            `If you did not ask for this, ignore this message and you will not hear from us.\n\n` +
            `Unsubscribe at any time: ${config.publicUrl}/newsletter/unsubscribe?token=${encodeURIComponent(unsubscribe)}\n`,
        })
        .catch((error: unknown) => logger.error({ err: error }, 'newsletter mail failed'));
      await audit.recordSafely({
        event: 'newsletter.subscribed',
        ...origin,
        details: { subscriber_id: subscriber.id },
      });
    },

    async confirm(token: string, origin: { ip: string | null; userAgent: string | null }) {
      const row = await OneTimeToken.findOne({
        where: { purpose: 'newsletter_confirm', token_hash: hash(token) },
      });
      const now = clock.now();
      if (!row || row.used_at || row.expires_at <= now) {
        throw new AppError(
          400,
          'newsletter.invalid_token',
          'This confirmation link is invalid or has expired',
        );
      }
      const [used] = await OneTimeToken.update({ used_at: now }, { where: { id: row.id, used_at: null } });
      if (used !== 1)
        throw new AppError(
          400,
          'newsletter.invalid_token',
          'This confirmation link is invalid or has expired',
        );
      await NewsletterSubscriber.update(
        { confirmed_at: now, unsubscribed_at: null },
        { where: { id: row.subject_id } },
      );
      await audit.recordSafely({
        event: 'newsletter.confirmed',
        ...origin,
        details: { subscriber_id: row.subject_id },
      });
    },

    async unsubscribe(token: string, origin: { ip: string | null; userAgent: string | null }) {
      const subscriber = await NewsletterSubscriber.findOne({ where: { unsubscribe_hash: hash(token) } });
      if (!subscriber)
        throw new AppError(400, 'newsletter.invalid_token', 'This unsubscribe link is invalid');
      if (!subscriber.unsubscribed_at) await subscriber.update({ unsubscribed_at: clock.now() });
      await audit.recordSafely({
        event: 'newsletter.unsubscribed',
        ...origin,
        details: { subscriber_id: subscriber.id },
      });
    },
  };
}

export type NewsletterService = ReturnType<typeof createNewsletterService>;

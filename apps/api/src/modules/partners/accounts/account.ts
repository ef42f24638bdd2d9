import type { Deps } from '../../../core/deps';
import type { Partner } from '../../../db/models/index';
import { AppError, tooManyRequests } from '../../../errors';
import { hashPassword } from '../../../lib/passwords';
import { forgetClient } from '../../../oidc/clients';
import type { AuditService } from '../../shared/audit/service';
import { mailOutboxFor } from '../../shared/notifications/outbox';
import type { RateLimiter, RateLimitRule } from '../../shared/rate-limit/service';
import type { RequestOrigin, SessionService } from '../../shared/sessions/service';
import { createLoginLockout } from '../../users/accounts/lockout';
import { createOneTimeTokens } from '../../users/accounts/one-time-tokens';

const EMAIL_TOKEN_TTL_MS = 24 * 3600_000;
const RESET_TOKEN_TTL_MS = 3600_000;
const VERIFICATION_MAILS: RateLimitRule = {
  name: 'partner-email-verification',
  limit: 5,
  windowMs: 3600_000,
};
const RESET_MAILS: RateLimitRule = { name: 'partner-forgot-password:email', limit: 5, windowMs: 3600_000 };

/** The answer to every reset request, known address or not (no account enumeration). */
export const RESET_REQUESTED =
  'If a partner account exists for this address, we have sent a link to reset its password.';

/**
 * Partner e-mail verification and password reset (issue 10). Opening the verification link activates a partner that
 * is pending verification (ATTESTLY_PARTNER_INITIAL_STATUS); it never lifts a suspension. A reset ends every partner
 * session and lifts the sign-in lockout, whose message already tells partners to reset.
 */
export function createPartnerAccount(
  deps: Deps,
  { audit, sessions, limiter }: { audit: AuditService; sessions: SessionService; limiter: RateLimiter },
) {
  const { db, config, clock } = deps;
  const { Partner, Site } = db.models;
  const tokens = createOneTimeTokens(deps);
  const outbox = mailOutboxFor(deps);
  const lockout = createLoginLockout(deps, 'partner');

  /** Sites of a partner whose status changed must stop (or start) at /oauth2 at once, not after the cache TTL. */
  async function forgetPartnerClients(partnerId: string): Promise<void> {
    const rows = await Site.findAll({ where: { partner_id: partnerId }, attributes: ['client_id'] });
    for (const row of rows) forgetClient(db, row.client_id);
  }

  async function sendVerification(partner: Partner, origin: RequestOrigin): Promise<void> {
    const token = await tokens.issue('partner_email_verification', partner.id, {
      ttlMs: EMAIL_TOKEN_TTL_MS,
      target: partner.email,
    });
    await outbox.enqueue({
      to: partner.email,
      subject: 'Confirm your e-mail address for your Attestly partner account',
      text:
        `Hello,\n\nConfirm the e-mail address of your Attestly partner account (${partner.company_name}) by opening ` +
        `this link within 24 hours:\n${config.publicUrl}/partner/verify-email?token=${encodeURIComponent(token)}\n\n` +
        `If you did not register, ignore this message.\n`,
    });
    await audit.recordSafely({
      event: 'partner.email_verification_sent',
      partnerId: partner.id,
      ...origin,
    });
  }

  return {
    forgetPartnerClients,
    sendVerification,

    async requestVerification(partnerId: string, origin: RequestOrigin): Promise<void> {
      const partner = await Partner.findByPk(partnerId);
      if (!partner) throw new AppError(404, 'partners.not_found', 'Partner not found');
      if (partner.email_verified_at) {
        throw new AppError(409, 'partners.email_already_verified', 'Your email address is already verified');
      }
      const budget = await limiter.hit(VERIFICATION_MAILS, partnerId);
      if (!budget.allowed) {
        throw tooManyRequests(
          'Too many verification emails. Please wait before asking again.',
          budget.retryAfterSeconds,
        );
      }
      await sendVerification(partner, origin);
    },

    async verifyEmail(token: string, origin: RequestOrigin): Promise<Partner> {
      const row = await tokens.consume('partner_email_verification', token);
      const partner = row ? await Partner.findByPk(row.subject_id) : null;
      // The link proves the address it was sent to; after an address change it proves nothing.
      if (!row || !partner || partner.email !== row.target) {
        throw new AppError(400, 'partners.invalid_token', 'This verification link is invalid or has expired');
      }
      const now = clock.now();
      await Partner.update({ email_verified_at: now, updated_at: now }, { where: { id: partner.id } });
      // Conditional: activation only from pending, so a suspension made meanwhile is never undone by the link.
      const [activated] = await Partner.update(
        { status: 'active', updated_at: now },
        { where: { id: partner.id, status: 'pending_verification' } },
      );
      if (activated === 1) await forgetPartnerClients(partner.id);
      await audit.recordSafely({
        event: 'partner.email_verified',
        partnerId: partner.id,
        ...origin,
        details: { activated: activated === 1 },
      });
      await partner.reload();
      return partner;
    },

    async forgotPassword(email: string, origin: RequestOrigin): Promise<void> {
      const budget = await limiter.hit(RESET_MAILS, email);
      if (!budget.allowed) {
        throw tooManyRequests(
          'Too many reset requests. Please wait before asking again.',
          budget.retryAfterSeconds,
        );
      }
      const partner = await Partner.findOne({ where: { email } });
      if (!partner || partner.status === 'suspended') return;
      const token = await tokens.issue('partner_password_reset', partner.id, {
        ttlMs: RESET_TOKEN_TTL_MS,
        target: partner.email,
      });
      await outbox.enqueue({
        to: partner.email,
        subject: 'Reset the password of your Attestly partner account',
        text:
          `Hello,\n\nSomeone asked to reset the password of your Attestly partner account. To choose a new password, ` +
          `open this link within one hour:\n${config.publicUrl}/partner/reset-password?token=${encodeURIComponent(token)}\n\n` +
          `The link works once. If you did not ask for this, ignore this message: your password stays as it is.\n`,
      });
      await audit.recordSafely({
        event: 'partner.password_reset_requested',
        partnerId: partner.id,
        ...origin,
      });
    },

    async resetPassword(token: string, password: string, origin: RequestOrigin): Promise<void> {
      const row = await tokens.consume('partner_password_reset', token);
      const partner = row ? await Partner.findByPk(row.subject_id) : null;
      if (!row || !partner || partner.status === 'suspended') {
        throw new AppError(
          400,
          'partners.invalid_token',
          'This password reset link is invalid or has expired',
        );
      }
      const now = clock.now();
      await Partner.update(
        {
          password_hash: await hashPassword(password, config.passwordCost),
          login_attempts: 0,
          locked_until: null,
          // Receiving the mail proves the address.
          email_verified_at: partner.email_verified_at ?? (partner.email === row.target ? now : null),
          updated_at: now,
        },
        { where: { id: partner.id } },
      );
      await lockout.reset(partner.email);
      const ended = await sessions.revokeAll('partner', partner.id);
      await audit.recordSafely({
        event: 'partner.password_reset',
        severity: 'warning',
        partnerId: partner.id,
        ...origin,
        details: { sessions_ended: ended },
      });
    },
  };
}
export type PartnerAccount = ReturnType<typeof createPartnerAccount>;

import { UniqueConstraintError } from 'sequelize';
import type * as v from 'valibot';
import type { partnerLoginBody, partnerProfileBody, partnerRegisterBody } from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import type { Partner, Session } from '../../../db/models/index';
import { AppError, tooManyRequests } from '../../../errors';
import { createAnswerTiming } from '../../../lib/answer-timing';
import { decoyHash, hashPassword, verifyPassword } from '../../../lib/passwords';
import type { AuditService } from '../../shared/audit/service';
import type { RateLimiter } from '../../shared/rate-limit/service';
import type { RequestOrigin, SessionService } from '../../shared/sessions/service';
import { INVALID_CREDENTIALS, LOCKED_OUT } from '../../users/accounts/service';
import { createLoginLockout } from '../../users/accounts/lockout';
import { mailOutboxFor } from '../../shared/notifications/outbox';
import { createPartnerAccount } from './account';

interface Services {
  sessions: SessionService;
  audit: AuditService;
  limiter: RateLimiter;
}

/** Partner accounts (spec 01 §1, §3, §7 "Partner"): registration, sign-in with lockout, profile. */
export function createPartnerService(deps: Deps, { sessions, audit, limiter }: Services) {
  const { db, config, clock, logger } = deps;
  const { Partner } = db.models;
  const lockout = createLoginLockout(deps, 'partner');
  const account = createPartnerAccount(deps, { audit, sessions, limiter });
  const registrationTiming = createAnswerTiming();

  async function findActive(id: string): Promise<Partner> {
    const partner = await Partner.findByPk(id);
    if (!partner || partner.status === 'suspended') {
      throw new AppError(401, 'auth.invalid_token', 'Your session has expired. Please sign in again.');
    }
    return partner;
  }

  async function register(
    body: v.InferOutput<typeof partnerRegisterBody>,
    origin: RequestOrigin,
  ): Promise<void> {
    const existing = await Partner.findOne({ where: { email: body.email } });
    // Hashed for a taken address too: the cached decoy verified here before answered in microseconds and gave the
    // address away.
    const passwordHash = await hashPassword(body.password, config.passwordCost);
    // From here the two answers do different writes: a taken address's is held to a new one's (answer-timing.ts).
    const started = registrationTiming.start();
    if (existing) {
      // Same answer as a new registration; the owner of the address hears about the attempt by mail instead.
      // Queued in the mail outbox before the answer (sent right after, retried by the job runner).
      await mailOutboxFor(deps)
        .enqueue({
          to: existing.email,
          subject: 'Someone tried to register an Attestly partner account with your e-mail address',
          text:
            `Hello,\n\nSomeone tried to register a new Attestly partner account with this e-mail address, which already has one.\n` +
            `If it was you, sign in at ${config.publicUrl}/partner/login.\nIf it was not you, you can ignore this message.\n`,
        })
        .catch((error: unknown) => logger.error({ err: error }, 'queueing mail failed'));
      await registrationTiming.quick(started);
      return;
    }
    const now = clock.now();
    try {
      const partner = await Partner.create({
        email: body.email,
        password_hash: passwordHash,
        company_name: body.company_name,
        contact_name: body.contact_name,
        phone: body.phone,
        website: body.website,
        business_type: body.business_type,
        // Pending until the e-mail link or an administrator activates it, where the operator chose so (config).
        status: config.partnerInitialStatus,
        locked_until: null,
        last_login_at: null,
        created_at: now,
        updated_at: now,
      });
      await audit.recordSafely({
        event: 'partner.registered',
        partnerId: partner.id,
        ip: origin.ip,
        userAgent: origin.userAgent,
        details: { status: partner.status },
      });
      // Spec 01 §8: 'Registration successful! Please check your email to verify your account.'
      await account.sendVerification(partner, origin);
      registrationTiming.slow(started);
    } catch (error) {
      if (error instanceof UniqueConstraintError) return;
      throw error;
    }
  }

  async function login(body: v.InferOutput<typeof partnerLoginBody>, origin: RequestOrigin) {
    // The users' lockout (users/lockout.ts), counted separately for partner accounts: per (account, address), per
    // address and per account, claimed before the password is checked, keyed by the address typed in so that unknown
    // addresses get the same answers as real accounts.
    const attempt = await lockout.claim(body.email, origin.ip);
    const partner = await Partner.findOne({ where: { email: body.email } });
    const passwordOk = partner
      ? await verifyPassword(body.password, partner.password_hash)
      : (await verifyPassword(body.password, await decoyHash(config.passwordCost))) && false;
    if (attempt.refusedFor > 0) throw tooManyRequests(LOCKED_OUT, attempt.refusedFor);
    const now = clock.now();
    if (partner?.locked_until && partner.locked_until > now) {
      throw tooManyRequests(LOCKED_OUT, (partner.locked_until.getTime() - now.getTime()) / 1000);
    }
    if (!partner || !passwordOk) {
      const outcome = await lockout.failed(body.email, origin.ip, attempt);
      if (partner) {
        await Partner.update(
          {
            login_attempts: outcome.accountFailures,
            ...(outcome.accountLockedUntil ? { locked_until: outcome.accountLockedUntil } : {}),
          },
          { where: { id: partner.id } },
        );
      }
      await audit.recordSafely({
        event: 'partner.login_failed',
        severity: 'warning',
        partnerId: partner?.id ?? null,
        ip: origin.ip,
        userAgent: origin.userAgent,
        details: {
          reason: partner ? 'wrong_password' : 'unknown_email',
          attempts: attempt.failures.pair,
          account_attempts: attempt.failures.account,
        },
      });
      if (outcome.lockedFor > 0) {
        await audit.recordSafely({
          event: 'partner.locked_out',
          severity: 'error',
          partnerId: partner?.id ?? null,
          ip: origin.ip,
          userAgent: origin.userAgent,
          details: { scope: outcome.locked, locked_for_seconds: outcome.lockedFor },
        });
        throw tooManyRequests(LOCKED_OUT, outcome.lockedFor);
      }
      throw new AppError(401, 'auth.invalid_credentials', INVALID_CREDENTIALS);
    }
    await lockout.succeeded(body.email, origin.ip);
    if (partner.status === 'suspended') {
      throw new AppError(
        403,
        'auth.account_disabled',
        'This partner account has been suspended. Please contact support.',
      );
    }
    await Partner.update(
      { login_attempts: 0, locked_until: null, last_login_at: now },
      { where: { id: partner.id } },
    );
    partner.set({ login_attempts: 0, locked_until: null, last_login_at: now });
    const issued = await sessions.issue('partner', partner.id, { remember: body.rememberMe, ...origin });
    await audit.recordSafely({
      event: 'partner.login_succeeded',
      partnerId: partner.id,
      ip: origin.ip,
      userAgent: origin.userAgent,
      details: { session_id: issued.session.id },
    });
    return { partner, ...issued };
  }

  async function updateProfile(
    partnerId: string,
    body: v.InferOutput<typeof partnerProfileBody>,
    origin: RequestOrigin,
  ) {
    const partner = await findActive(partnerId);
    await partner.update({ ...body, updated_at: clock.now() });
    await audit.recordSafely({
      event: 'partner.profile_updated',
      partnerId,
      ip: origin.ip,
      userAgent: origin.userAgent,
      details: { fields: Object.keys(body) },
    });
    return partner;
  }

  return {
    ...account,
    findActive,
    register,
    login,
    updateProfile,
    async logout(session: Session, origin: RequestOrigin) {
      await sessions.revoke(session.id);
      await audit.recordSafely({
        event: 'partner.logged_out',
        partnerId: session.subject_id,
        ip: origin.ip,
        userAgent: origin.userAgent,
      });
    },
  };
}
export type PartnerService = ReturnType<typeof createPartnerService>;

import { UniqueConstraintError } from 'sequelize';
import type * as v from 'valibot';
import type { partnerLoginBody, partnerProfileBody, partnerRegisterBody } from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import type { Partner, Session } from '../../../db/models/index';
import { AppError } from '../../../errors';
import { createAnswerTiming } from '../../../lib/answer-timing';
import { hashPassword } from '../../../lib/passwords';
import type { AuditService } from '../../shared/audit/service';
import type { RateLimiter } from '../../shared/rate-limit/service';
import type { RequestOrigin, SessionService } from '../../shared/sessions/service';
import { createAccountSignIn } from '../../users/accounts/password-check';
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
  // The users' password step and lockout (users/accounts/password-check.ts), counted separately for partners.
  const { checkPassword, signedIn } = createAccountSignIn<Partner>(
    { clock, passwordCost: config.passwordCost, lockout, audit, sessions },
    'partner',
    {
      lockedOutDetails: () => ({}),
      write: (partner, figures) => Partner.update(figures, { where: { id: partner.id } }),
    },
  );

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
        ...origin,
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
    const found = await Partner.findOne({ where: { email: body.email } });
    const partner = await checkPassword(body.email, found, body.password, origin);
    if (partner.status === 'suspended') {
      throw new AppError(
        403,
        'auth.account_disabled',
        'This partner account has been suspended. Please contact support.',
      );
    }
    return { partner, ...(await signedIn(partner, body.rememberMe, origin)) };
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
      ...origin,
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
        ...origin,
      });
    },
  };
}
export type PartnerService = ReturnType<typeof createPartnerService>;

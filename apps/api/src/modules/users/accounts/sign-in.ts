import { UniqueConstraintError } from 'sequelize';
import type * as v from 'valibot';
import type { loginBody, registerBody } from '@attestly/contracts';
import type { User } from '../../../db/models/index';
import { AppError, tooManyRequests } from '../../../errors';
import { createAnswerTiming } from '../../../lib/answer-timing';
import { decoyHash, hashPassword, verifyPassword } from '../../../lib/passwords';
import type { RequestOrigin } from '../../shared/sessions/service';
import type { AccountContext } from './account-context';
import { INVALID_CREDENTIALS, LOCKED_OUT } from './limits';

/** Sign-up and sign-in: an account for an address, and a session for the right password (lockout.ts). */
export function createSignIn(
  ctx: AccountContext,
  sendEmailVerification: (user: User, origin: RequestOrigin) => Promise<void>,
) {
  const { deps, audit, sessions, lockout, sendLater, spendRecipientBudget } = ctx;
  const { db, config, clock } = deps;
  const { User } = db.models;
  const signUpTiming = createAnswerTiming();

  async function register(body: v.InferOutput<typeof registerBody>, origin: RequestOrigin): Promise<void> {
    // Every sign-up mails the address (a link, or a notice to its owner): capped per recipient, for both alike.
    await spendRecipientBudget(body.email);
    const existing = await User.findOne({ where: { email: body.email } });
    // Hashed for a taken address too: a cached decoy would answer faster and give the address away.
    const passwordHash = await hashPassword(body.password, config.passwordCost);
    // From here the two answers do different writes: a taken address's is held to a new sign-up's (answer-timing.ts).
    const started = signUpTiming.start();
    if (existing) {
      // Same answer as a new sign-up; the owner of the address learns about the attempt by mail instead.
      await sendLater(
        existing.email,
        'Someone tried to create an Attestly account with your e-mail address',
        `Hello,\n\nSomeone tried to create a new Attestly account with this e-mail address, which already has one.\n` +
          `If it was you, sign in at ${config.publicUrl}/login or reset your password at ${config.publicUrl}/forgot-password.\n` +
          `If it was not you, you can ignore this message.\n`,
      );
      await audit.recordSafely({
        event: 'user.registration_duplicate',
        userId: existing.id,
        ip: origin.ip,
        userAgent: origin.userAgent,
      });
      await signUpTiming.quick(started);
      return;
    }
    const now = clock.now();
    try {
      const user = await User.create({
        email: body.email,
        password_hash: passwordHash,
        full_name: body.full_name,
        phone: body.phone,
        created_at: now,
        updated_at: now,
      });
      // Committed before the answer (issue 15 item 9): the audit entry and the queued verification mail. A taken
      // address does comparable work above and then waits out the difference.
      await audit.recordSafely({
        event: 'user.registered',
        userId: user.id,
        ip: origin.ip,
        userAgent: origin.userAgent,
      });
      await sendEmailVerification(user, origin);
      signUpTiming.slow(started);
    } catch (error) {
      // Lost a race with a concurrent sign-up for the same address: same neutral answer.
      if (error instanceof UniqueConstraintError) return;
      throw error;
    }
  }

  async function login(body: v.InferOutput<typeof loginBody>, origin: RequestOrigin) {
    // Lockout (lockout.ts): the attempt claims its place in the counters before the password is checked, and the
    // counters are keyed by the address typed in, so unknown addresses get exactly the answers real accounts get.
    const attempt = await lockout.claim(body.email, origin.ip);
    const user = await User.findOne({ where: { email: body.email, deleted_at: null } });
    // Same work whether or not the account exists (a decoy hash), so timing does not tell either.
    const passwordOk = user
      ? await verifyPassword(body.password, user.password_hash)
      : (await verifyPassword(body.password, await decoyHash(config.passwordCost))) && false;
    if (attempt.refusedFor > 0) throw tooManyRequests(LOCKED_OUT, attempt.refusedFor);
    const now = clock.now();
    if (user?.locked_until && user.locked_until > now) {
      throw tooManyRequests(LOCKED_OUT, (user.locked_until.getTime() - now.getTime()) / 1000);
    }
    if (!user || !passwordOk) {
      const outcome = await lockout.failed(body.email, origin.ip, attempt);
      if (user) {
        // Shown to administrators (spec 02 login_attempts / locked_until): the account-wide figures.
        await User.update(
          {
            login_attempts: outcome.accountFailures,
            ...(outcome.accountLockedUntil ? { locked_until: outcome.accountLockedUntil } : {}),
          },
          { where: { id: user.id } },
        );
      }
      await audit.recordSafely({
        event: 'user.login_failed',
        severity: 'warning',
        userId: user?.id ?? null,
        ip: origin.ip,
        userAgent: origin.userAgent,
        details: {
          reason: user ? 'wrong_password' : 'unknown_email',
          attempts: attempt.failures.pair,
          account_attempts: attempt.failures.account,
        },
      });
      if (outcome.lockedFor > 0) {
        await audit.recordSafely({
          event: 'user.locked_out',
          severity: 'error',
          userId: user?.id ?? null,
          ip: origin.ip,
          userAgent: origin.userAgent,
          details: {
            ...(user ? {} : { reason: 'unknown_email' }),
            scope: outcome.locked,
            locked_for_seconds: outcome.lockedFor,
          },
        });
        throw tooManyRequests(LOCKED_OUT, outcome.lockedFor);
      }
      throw new AppError(401, 'auth.invalid_credentials', INVALID_CREDENTIALS);
    }
    await lockout.succeeded(body.email, origin.ip);
    if (!user.is_active) {
      // Only said after the password proved ownership, so it reveals nothing to a stranger.
      throw new AppError(
        403,
        'auth.account_disabled',
        'This account has been disabled. Please contact support.',
      );
    }
    await User.update(
      { login_attempts: 0, locked_until: null, last_login_at: now },
      { where: { id: user.id } },
    );
    user.set({ login_attempts: 0, locked_until: null, last_login_at: now });
    const issued = await sessions.issue('user', user.id, { remember: body.rememberMe, ...origin });
    await audit.recordSafely({
      event: 'user.login_succeeded',
      userId: user.id,
      ip: origin.ip,
      userAgent: origin.userAgent,
      details: { remember: body.rememberMe, session_id: issued.session.id },
    });
    return { user, ...issued };
  }

  return { register, login };
}

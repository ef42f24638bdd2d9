import { UniqueConstraintError } from 'sequelize';
import type * as v from 'valibot';
import type { loginBody, registerBody } from '@attestly/contracts';
import type { User } from '../../../db/models/index';
import { AppError } from '../../../errors';
import { createAnswerTiming } from '../../../lib/answer-timing';
import { hashPassword } from '../../../lib/passwords';
import type { RequestOrigin } from '../../shared/sessions/service';
import type { AccountContext } from './account-context';
import { createAccountSignIn } from './password-check';

/** Sign-up and sign-in: an account for an address, and a session for the right password (lockout.ts). */
export function createSignIn(
  ctx: AccountContext,
  sendEmailVerification: (user: User, origin: RequestOrigin) => Promise<void>,
) {
  const { deps, audit, sessions, lockout, sendLater, spendRecipientBudget } = ctx;
  const { db, config, clock } = deps;
  const { User } = db.models;
  const signUpTiming = createAnswerTiming();
  // The password step and its lockout (password-check.ts, lockout.ts), shared with partners and administrators.
  const { checkPassword, signedIn } = createAccountSignIn<User>(
    { clock, passwordCost: config.passwordCost, lockout, audit, sessions },
    'user',
    {
      lockedOutDetails: (user) => (user ? {} : { reason: 'unknown_email' }),
      write: (user, figures) => User.update(figures, { where: { id: user.id } }),
    },
  );

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
        ...origin,
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
        ...origin,
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
    const found = await User.findOne({ where: { email: body.email, deleted_at: null } });
    const user = await checkPassword(body.email, found, body.password, origin);
    if (!user.is_active) {
      // Only said after the password proved ownership, so it reveals nothing to a stranger.
      throw new AppError(
        403,
        'auth.account_disabled',
        'This account has been disabled. Please contact support.',
      );
    }
    return { user, ...(await signedIn(user, body.rememberMe, origin, { remember: body.rememberMe })) };
  }

  return { register, login };
}

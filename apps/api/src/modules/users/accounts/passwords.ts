import type * as v from 'valibot';
import type { changePasswordBody, resetPasswordBody } from '@attestly/contracts';
import { AppError, tooManyRequests } from '../../../errors';
import { hashPassword, verifyPassword } from '../../../lib/passwords';
import type { RequestOrigin, SessionRecord } from '../../shared/sessions/service';
import type { AccountContext } from './account-context';
import { FORGOT_PASSWORD_BY_EMAIL, RESET_TOKEN_TTL_MS } from './limits';

const PASSWORD_RESET_REQUEST = 'password_reset_request';

/** The account's password: changing it, and resetting it through a mailed link. */
export function createPasswords(ctx: AccountContext) {
  const { deps, audit, limiter, tokens, lockout, ender, outbox, findActiveUser } = ctx;
  const { db, config, clock } = deps;
  const { User } = db.models;

  async function changePassword(
    session: SessionRecord,
    body: v.InferOutput<typeof changePasswordBody>,
    origin: RequestOrigin,
  ) {
    const user = await findActiveUser(session.subject_id);
    if (!(await verifyPassword(body.current_password, user.password_hash))) {
      throw new AppError(422, 'users.wrong_password', 'Current password is incorrect', [
        { path: 'current_password', message: 'Current password is incorrect' },
      ]);
    }
    await user.update({ password_hash: await hashPassword(body.new_password, config.passwordCost) });
    // Every other sign-in ends, the provider's browser sessions included; "sign out everywhere" also ends the
    // partners' access and refresh tokens (consent stays, so the user signs in to them again without asking).
    const ended = await ender.endAllSessions(user.id, {
      reason: 'password_changed',
      keepSessionId: session.id,
      revokeGrants: body.sign_out_everywhere ? 'tokens' : false,
      origin,
    });
    await tokens.revokeAll('password_reset', user.id);
    await audit.recordSafely({
      event: 'user.password_changed',
      userId: user.id,
      ...origin,
      details: {
        other_sessions_revoked: ended.sessions,
        sign_out_everywhere: !!body.sign_out_everywhere,
      },
    });
  }

  async function forgotPassword(email: string, origin: RequestOrigin) {
    const budget = await limiter.hit(FORGOT_PASSWORD_BY_EMAIL, email);
    if (!budget.allowed)
      throw tooManyRequests(
        'Too many reset requests. Please wait before asking again.',
        budget.retryAfterSeconds,
      );
    // The same work for every address, account or not: one durable outbox row, stored before the answer. The
    // outbox turns it into the reset mail after the answer (the handler below), so neither the answer nor
    // its timing tells whether the address has an account, and a crash after the answer loses nothing.
    await outbox.enqueue(
      { to: email, subject: '', text: JSON.stringify({ ip: origin.ip, userAgent: origin.userAgent }) },
      { kind: PASSWORD_RESET_REQUEST },
    );
  }

  /** Outbox handler: finds the account of a reset request, issues the link and writes the mail (or nothing). */
  outbox.handle(PASSWORD_RESET_REQUEST, async ({ recipient, text }) => {
    const user = await User.findOne({ where: { email: recipient, deleted_at: null, is_active: true } });
    if (!user) return null;
    const token = await tokens.issue('password_reset', user.id, {
      ttlMs: RESET_TOKEN_TTL_MS,
      target: user.email,
    });
    const origin = JSON.parse(text || '{}') as Partial<RequestOrigin>;
    await audit.recordSafely({
      event: 'user.password_reset_requested',
      userId: user.id,
      ip: origin.ip ?? null,
      userAgent: origin.userAgent ?? null,
    });
    return {
      to: user.email,
      subject: 'Reset your Attestly password',
      text:
        `Hello ${user.full_name},\n\nSomeone asked to reset the password of your Attestly account. To choose a new password, ` +
        `open this link within one hour:\n${config.publicUrl}/reset-password?token=${encodeURIComponent(token)}\n\n` +
        `The link works once. If you did not ask for this, ignore this message: your password stays as it is.\n`,
    };
  });

  async function resetPassword(body: v.InferOutput<typeof resetPasswordBody>, origin: RequestOrigin) {
    const row = await tokens.consume('password_reset', body.token);
    const user = row ? await User.findByPk(row.subject_id) : null;
    if (!row || !user || user.deleted_at || !user.is_active) {
      throw new AppError(400, 'users.invalid_token', 'This password reset link is invalid or has expired');
    }
    await user.update({
      password_hash: await hashPassword(body.new_password, config.passwordCost),
      login_attempts: 0,
      locked_until: null,
      // Receiving the mail proves the address.
      email_verified_at: user.email_verified_at ?? (user.email === row.target ? clock.now() : null),
    });
    await lockout.reset(user.email);
    await ender.endAllSessions(user.id, { reason: 'password_reset', origin });
    await audit.recordSafely({
      event: 'user.password_reset',
      userId: user.id,
      ...origin,
    });
  }

  return { changePassword, forgotPassword, resetPassword };
}

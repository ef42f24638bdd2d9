import { UniqueConstraintError } from 'sequelize';
import type { User } from '../../../db/models/index';
import { AppError, tooManyRequests } from '../../../errors';
import type { RequestOrigin } from '../../shared/sessions/service';
import type { AccountContext } from './account-context';
import {
  EMAIL_TOKEN_BYTES,
  EMAIL_TOKEN_TTL_MS,
  EMAIL_VERIFICATION_BY_USER,
  PHONE_CODE_MAX_ATTEMPTS,
  PHONE_CODE_TTL_MS,
} from './limits';
import { spendPhoneBudget } from './phone-budget';

/** Proving the account's e-mail address and phone number: the links and codes sent, and their use. */
export function createContactVerification(ctx: AccountContext) {
  const { deps, audit, limiter, tokens, sendLater, findActiveUser, emailLink } = ctx;
  const { db, config, clock, phone } = deps;
  const { User } = db.models;

  async function sendEmailVerification(user: User, origin: RequestOrigin) {
    const token = await tokens.issue('email_verification', user.id, {
      ttlMs: EMAIL_TOKEN_TTL_MS,
      target: user.email,
      bytes: EMAIL_TOKEN_BYTES,
    });
    await sendLater(
      user.email,
      'Confirm your e-mail address for Attestly',
      // ASCII lines of at most 76 characters and no user-supplied text: the mail goes out as plain 7-bit text, so
      // the link reads exactly as it is in the raw message (quoted-printable would split it and turn "=" into "=3D").
      `Hello,\n\nConfirm that this is your e-mail address by opening this link\nwithin 24 hours:\n\n` +
        `${emailLink(token)}\n\nIf you did not create an Attestly account, ignore this message.\n`,
    );
    await audit.recordSafely({
      event: 'user.email_verification_sent',
      userId: user.id,
      ...origin,
    });
  }

  async function requestEmailVerification(userId: string, origin: RequestOrigin) {
    const user = await findActiveUser(userId);
    if (user.email_verified_at)
      throw new AppError(409, 'users.email_already_verified', 'Your email address is already verified');
    const budget = await limiter.hit(EMAIL_VERIFICATION_BY_USER, userId);
    if (!budget.allowed)
      throw tooManyRequests(
        'Too many verification emails. Please wait before asking again.',
        budget.retryAfterSeconds,
      );
    await sendEmailVerification(user, origin);
  }

  /** The link mailed to a requested new address was opened: the address is the account's now, and proven. */
  async function confirmEmailChange(userId: string, address: string | null, origin: RequestOrigin) {
    const user = await User.findByPk(userId);
    if (!user || user.deleted_at || !user.is_active || !address) {
      throw new AppError(400, 'users.invalid_token', 'This verification link is invalid or has expired');
    }
    const previous = user.email;
    try {
      await user.update({ email: address, email_verified_at: clock.now() });
    } catch (error) {
      // Another account took the address after the link was sent; only the holder of that mailbox learns it.
      if (error instanceof UniqueConstraintError)
        throw new AppError(409, 'users.email_taken', 'That email address is already in use');
      throw error;
    }
    // A reset link mailed to the old address must not outlive the change (the old mailbox may be the reason).
    await tokens.revokeAll('password_reset', user.id);
    await sendLater(
      previous,
      'Your Attestly e-mail address was changed',
      `Hello,\n\nThe e-mail address of your Attestly account was changed from this address to a new one.\n` +
        `If you did not do this, reset your password at ${config.publicUrl}/forgot-password using the new address, or contact support.\n`,
    );
    await audit.recordSafely({
      event: 'user.email_changed',
      userId: user.id,
      ...origin,
    });
    return user;
  }

  async function verifyEmail(token: string, origin: RequestOrigin) {
    const change = await tokens.consume('email_change', token);
    if (change) return confirmEmailChange(change.subject_id, change.target, origin);
    const row = await tokens.consume('email_verification', token);
    const user = row ? await User.findByPk(row.subject_id) : null;
    // The link proves the address it was sent to; if the account has since changed address it proves nothing.
    if (!row || !user || user.deleted_at || user.email !== row.target) {
      throw new AppError(400, 'users.invalid_token', 'This verification link is invalid or has expired');
    }
    await user.update({ email_verified_at: clock.now() });
    await audit.recordSafely({
      event: 'user.email_verified',
      userId: user.id,
      ...origin,
    });
    return user;
  }

  async function requestPhoneVerification(userId: string, requested: string | null, origin: RequestOrigin) {
    const user = await findActiveUser(userId);
    const number = requested ?? user.phone;
    if (!number) {
      throw new AppError(422, 'validation.failed', 'Phone number is required', [
        { path: 'phone', message: 'Phone number is required' },
      ]);
    }
    // Per account and per number (issue 21 item 5), counted in the database before anything is sent.
    await spendPhoneBudget(limiter, userId, number);
    const code = await tokens.issue('phone_verification', user.id, {
      ttlMs: PHONE_CODE_TTL_MS,
      target: number,
      digits: 6,
    });
    await user.update({ pending_phone: number });
    await phone.sendCode(number, code);
    await audit.recordSafely({
      event: 'user.phone_verification_sent',
      userId,
      ...origin,
    });
  }

  async function verifyPhone(userId: string, code: string, origin: RequestOrigin) {
    const user = await findActiveUser(userId);
    const result = await tokens.consumeCode('phone_verification', userId, code, PHONE_CODE_MAX_ATTEMPTS);
    if (!result.ok) {
      const detail =
        result.reason === 'wrong'
          ? 'The code is incorrect'
          : result.reason === 'too_many'
            ? 'Too many wrong codes. Please request a new code.'
            : 'The code has expired. Please request a new code.';
      throw new AppError(422, 'users.invalid_code', detail, [{ path: 'code', message: detail }]);
    }
    await user.update({ phone: result.row.target, pending_phone: null, phone_verified_at: clock.now() });
    await audit.recordSafely({
      event: 'user.phone_verified',
      userId,
      ...origin,
    });
    return user;
  }

  return {
    sendEmailVerification,
    requestEmailVerification,
    verifyEmail,
    requestPhoneVerification,
    verifyPhone,
  };
}

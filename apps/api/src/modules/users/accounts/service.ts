import { Op, UniqueConstraintError, type InferAttributes } from 'sequelize';
import { fromRow } from '../../../db/rows';
import type * as v from 'valibot';
import type {
  changePasswordBody,
  profileBody,
  registerBody,
  loginBody,
  resetPasswordBody,
  UserProfile,
} from '@attestly/contracts';
import { AppError, tooManyRequests } from '../../../errors';
import { decoyHash, hashPassword, verifyPassword } from '../../../lib/passwords';
import { randomToken } from '../../../lib/crypto';
import type { User } from '../../../db/models/index';
import type { Deps } from '../../../core/deps';
import type { AuditService } from '../../shared/audit/service';
import type { RateLimiter, RateLimitRule } from '../../shared/rate-limit/service';
import type { RequestOrigin, SessionRecord, SessionService } from '../../shared/sessions/service';
import type { UploadedFile } from '../../../middleware/multipart';
import { presentUser } from './presenters';
import type { OneTimeTokens } from './one-time-tokens';
import { createLoginLockout, LOGIN_LOCKOUT } from './lockout';
import { spendPhoneBudget } from './phone-budget';
import { createGrantService } from '../grants/service';
import { createSessionEnder, type EndSessionsOptions } from '../../shared/sessions/end-sessions';
import { mailOutboxFor } from '../../shared/notifications/outbox';
import { eraseAccount } from './erasure';

/** Failed sign-ins from one address before that address is locked out of the account, and for how long (lockout.ts). */
export const MAX_FAILED_LOGINS = LOGIN_LOCKOUT.pair.limit;
export const LOCKOUT_MS = LOGIN_LOCKOUT.pair.lockMs;
export const RESET_TOKEN_TTL_MS = 60 * 60_000;
export const EMAIL_TOKEN_TTL_MS = 24 * 60 * 60_000;
export const PHONE_CODE_TTL_MS = 10 * 60_000;
export const PHONE_CODE_MAX_ATTEMPTS = 5;

export const FORGOT_PASSWORD_BY_EMAIL: RateLimitRule = {
  name: 'forgot:email',
  limit: 3,
  windowMs: 60 * 60_000,
};
export const EMAIL_VERIFICATION_BY_USER: RateLimitRule = {
  name: 'email-verify:user',
  limit: 3,
  windowMs: 15 * 60_000,
};
/** E-mail address changes an account may ask for (each one mails someone). */
export const EMAIL_CHANGE_BY_USER: RateLimitRule = {
  name: 'email-change:user',
  limit: 5,
  windowMs: 60 * 60_000,
};
/**
 * Mail any one address may receive from sign-ups and address changes, whoever asks: without it anybody could have
 * Attestly mail an arbitrary address over and over. Counted per recipient (hashed), the same for taken and free
 * addresses, so the limit itself tells nothing about which addresses have accounts.
 */
export const MAIL_BY_RECIPIENT: RateLimitRule = {
  name: 'mail:recipient',
  limit: 5,
  windowMs: 60 * 60_000,
};
/** E-mail links carry 192-bit tokens: short enough that the whole link stays on one line of a mail (≤ 76 chars). */
const EMAIL_TOKEN_BYTES = 24;

export { PHONE_VERIFICATION_BY_USER } from './phone-budget';

export const INVALID_CREDENTIALS = 'Invalid email or password';
export const LOCKED_OUT = 'Too many failed sign-in attempts. Please try again later or reset your password.';

interface Services {
  sessions: SessionService;
  audit: AuditService;
  limiter: RateLimiter;
  tokens: OneTimeTokens;
}

export function createUserService(deps: Deps, { sessions, audit, limiter, tokens }: Services) {
  const { db, config, clock, phone, logger } = deps;
  const { User, UserPhoto } = db.models;
  const lockout = createLoginLockout(deps, 'user');
  const ender = createSessionEnder(deps, { grants: createGrantService(deps, { audit }), audit });

  /**
   * Work done after the response (mail, and the steps whose duration would tell whether an account exists). It is
   * tracked so that shutdown, and tests, can wait for it to finish: `whenIdle()`.
   */
  const background = new Set<Promise<void>>();
  function later(what: string, work: () => Promise<void>): void {
    const task: Promise<void> = work()
      .catch((error: unknown) => logger.error({ err: error }, `${what} failed`))
      .finally(() => background.delete(task));
    background.add(task);
  }

  /**
   * Mail goes through the transactional outbox (notifications/outbox.ts): the returned promise resolves once the
   * message is stored (await it before answering, so a crash after the response loses nothing); it is sent right
   * after, by this process, or by the job runner's retries. SMTP latency never reaches the response, so it cannot
   * tell an attacker whether an account exists. Storing failures are logged, never thrown.
   */
  const outbox = mailOutboxFor(deps);
  const PASSWORD_RESET_REQUEST = 'password_reset_request';
  function sendLater(to: string, subject: string, text: string): Promise<void> {
    const stored = outbox.enqueue({ to, subject, text });
    later('mail', () => stored);
    return stored.catch(() => undefined);
  }

  async function findActiveUser(id: string): Promise<User> {
    const user = await User.findByPk(id);
    if (!user || !user.is_active || user.deleted_at) {
      throw new AppError(401, 'auth.invalid_token', 'Your session has expired. Please sign in again.');
    }
    return user;
  }

  /**
   * Whether the user also holds a partner account (spec 01 §6 `is_partner`: the portal then adds the user's pages):
   * a partner that is not suspended with the same address, both addresses proven by mail, so that nobody becomes
   * "partner" of an account by typing its address. Read on each profile read (one probe of the partners'
   * LOWER(email) unique index), so it follows the partner's state without a copy to keep in step.
   */
  async function ownsPartnerAccount(user: InferAttributes<User>): Promise<boolean> {
    if (!user.email_verified_at) return false;
    const rows = await db.read<{ id: string }>(
      `SELECT id FROM partners WHERE LOWER(email) = :email AND email_verified_at IS NOT NULL
       AND status <> 'suspended'`,
      { email: user.email.toLowerCase() },
    );
    return rows.length > 0;
  }

  /**
   * The signed-in user's profile for reading only: one prepared statement (db.read; GET /users/profile is hot), or
   * none when the row came with the session in this request (`SessionRecord.user`, read in the same statement).
   */
  async function readProfile(
    id: string,
    withSession?: Record<string, unknown> | null,
  ): Promise<InferAttributes<User>> {
    const row =
      withSession !== undefined
        ? withSession
        : (await db.read<Record<string, unknown>>('SELECT * FROM users WHERE id = :id', { id }))[0];
    const user = row ? fromRow<InferAttributes<User>>(User, row) : null;
    if (!user || !user.is_active || user.deleted_at) {
      throw new AppError(401, 'auth.invalid_token', 'Your session has expired. Please sign in again.');
    }
    return user;
  }

  /**
   * The user's profile as every answer shows it (presentUser), with `is_partner` read as ownsPartnerAccount says;
   * `ownsPartner` when the session's statement already answered that (GET /users/profile stays one round trip).
   */
  async function profileOf(user: InferAttributes<User>, ownsPartner?: boolean): Promise<UserProfile> {
    const profile = presentUser(user, clock.now());
    const partner =
      ownsPartner === undefined ? await ownsPartnerAccount(user) : ownsPartner && !!user.email_verified_at;
    return { ...profile, is_partner: profile.is_partner || partner };
  }

  async function register(body: v.InferOutput<typeof registerBody>, origin: RequestOrigin): Promise<void> {
    // Every sign-up mails the address (a link, or a notice to its owner): capped per recipient, for both alike.
    await spendRecipientBudget(body.email);
    const existing = await User.findOne({ where: { email: body.email } });
    if (existing) {
      // Same answer as a new sign-up, after the same hashing work (a cached decoy would answer faster and give
      // the address away); the owner of the address learns about the attempt by mail instead.
      await hashPassword(body.password, config.passwordCost);
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
      return;
    }
    const now = clock.now();
    try {
      const user = await User.create({
        email: body.email,
        password_hash: await hashPassword(body.password, config.passwordCost),
        full_name: body.full_name,
        phone: body.phone,
        created_at: now,
        updated_at: now,
      });
      // Committed before the answer (issue 15 item 9): the audit entry and the queued verification mail. A taken
      // address does comparable work above (a queued mail and an audit entry), so the timing stays close.
      await audit.recordSafely({
        event: 'user.registered',
        userId: user.id,
        ip: origin.ip,
        userAgent: origin.userAgent,
      });
      await sendEmailVerification(user, origin);
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

  async function updateProfile(
    userId: string,
    body: v.InferOutput<typeof profileBody>,
    origin: RequestOrigin,
  ) {
    const user = await findActiveUser(userId);
    // PUT saves the whole form (spec 01 §2 "Profile settings"): an optional field left out is cleared, like a
    // blank one, so that what is stored is exactly what was sent.
    const changes: Partial<User> = {
      full_name: body.full_name,
      phone: body.phone ?? null,
      country: body.country ?? null,
      state: body.state ?? null,
      city: body.city ?? null,
    };
    // A new address is not applied here: it takes effect when the link mailed to it is opened (verifyEmail), and
    // the answer is the same whether or not another account has it (no enumeration through this form).
    const emailChanged = body.email !== user.email;
    if (emailChanged) await requestEmailChange(user, body.email, origin);
    if (changes.phone !== user.phone) changes.phone_verified_at = null;
    await user.update(changes);
    await audit.recordSafely({
      event: 'user.profile_updated',
      userId,
      ip: origin.ip,
      userAgent: origin.userAgent,
      details: {
        fields: Object.keys(changes).filter(
          (key) => key !== 'email_verified_at' && key !== 'phone_verified_at',
        ),
      },
    });
    return { user, pendingEmail: emailChanged ? body.email : null };
  }

  /** Counts one mail to `address` against its hourly budget; over it → 429 for everyone alike. */
  async function spendRecipientBudget(address: string) {
    const budget = await limiter.hit(MAIL_BY_RECIPIENT, address.toLowerCase());
    if (!budget.allowed)
      throw tooManyRequests(
        'Too many messages have been sent to this address. Please try again later.',
        budget.retryAfterSeconds,
      );
  }

  /**
   * Asks to move the account to `address`: a free address gets a confirmation link; a taken one gets a notice to its
   * owner instead. Both cost the same budgets and produce the same answer.
   */
  async function requestEmailChange(user: User, address: string, origin: RequestOrigin) {
    const byAccount = await limiter.hit(EMAIL_CHANGE_BY_USER, user.id);
    if (!byAccount.allowed)
      throw tooManyRequests(
        'Too many e-mail address changes. Please wait before trying again.',
        byAccount.retryAfterSeconds,
      );
    await spendRecipientBudget(address);
    const owner = await User.findOne({ where: { email: address }, attributes: ['id', 'email'] });
    if (owner) {
      await sendLater(
        owner.email,
        'Someone tried to use your e-mail address on Attestly',
        `Hello,\n\nAnother Attestly account asked to use this e-mail address, which already belongs to your account.\n` +
          `Nothing has changed: your account and your address are untouched. If you did not expect this, you can ignore it.\n`,
      );
    } else {
      const token = await tokens.issue('email_change', user.id, {
        ttlMs: EMAIL_TOKEN_TTL_MS,
        target: address,
        bytes: EMAIL_TOKEN_BYTES,
      });
      await sendLater(
        address,
        'Confirm your new e-mail address for Attestly',
        `Hello,\n\nAn Attestly account asked to use this e-mail address. Open this link\nwithin 24 hours to confirm it:\n\n` +
          `${emailLink(token)}\n\nUntil then the account keeps its current address.\n` +
          `If you did not ask for this, ignore this message.\n`,
      );
    }
    await audit.recordSafely({
      event: 'user.email_change_requested',
      userId: user.id,
      ip: origin.ip,
      userAgent: origin.userAgent,
    });
  }

  /** The link e-mails carry: a path, not a query (no "=" for quoted-printable to mangle), on a line of its own. */
  function emailLink(token: string) {
    return `${config.publicUrl}/confirm-email/${token}`;
  }

  async function setProfilePhoto(userId: string, file: UploadedFile, origin: RequestOrigin) {
    const user = await findActiveUser(userId);
    const key = randomToken(24);
    await db.sequelize.transaction(async (transaction) => {
      await UserPhoto.destroy({ where: { user_id: userId }, transaction });
      await UserPhoto.create(
        { user_id: userId, key, content_type: file.mime, bytes: file.bytes },
        { transaction },
      );
      await User.update({ profile_photo_key: key }, { where: { id: userId }, transaction });
    });
    user.profile_photo_key = key;
    await audit.recordSafely({
      event: 'user.profile_photo_updated',
      userId,
      ip: origin.ip,
      userAgent: origin.userAgent,
      details: { content_type: file.mime, bytes: file.bytes.length },
    });
    return user;
  }

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
      ip: origin.ip,
      userAgent: origin.userAgent,
      details: {
        other_sessions_revoked: ended.sessions,
        sign_out_everywhere: !!body.sign_out_everywhere,
      },
    });
  }

  async function deleteAccount(session: SessionRecord, password: string, origin: RequestOrigin) {
    const user = await findActiveUser(session.subject_id);
    if (!(await verifyPassword(password, user.password_hash))) {
      throw new AppError(422, 'users.wrong_password', 'Password is incorrect', [
        { path: 'password', message: 'Password is incorrect' },
      ]);
    }
    const now = clock.now();
    // Every grant, token and sign-in ends first (issue 15 item 2): nothing issued to this account stays usable.
    await ender.endAllSessions(user.id, { reason: 'account_deleted', revokeGrants: true, origin });
    // Personal data is erased; the anonymised row stays (erasure.ts).
    const withdrawn = await eraseAccount(deps, user.id, { now });
    await audit.recordSafely({
      event: 'user.account_deleted',
      userId: user.id,
      ip: origin.ip,
      userAgent: origin.userAgent,
      details: { withdrawn_cases: withdrawn },
    });
    // The confirmation goes to the address the account had (issue 25 item 12): the person learns it is done, and
    // the owner of the address learns if someone else did it. It names no personal data beyond that address.
    await sendLater(
      user.email,
      'Your Attestly account has been deleted',
      `Hello,\n\nThe Attestly account for this e-mail address at ${config.publicUrl} was deleted on ` +
        `${now.toISOString().slice(0, 10)}, as requested from a signed-in session.\n\n` +
        'Its personal data, photos and kept verification media are erased, and every site you had connected ' +
        'lost access at once. Records that must stay for security audits keep only an anonymous account number.\n\n' +
        `If you did not do this, contact ${config.supportEmail}. You can create a new account at any time at ` +
        `${config.publicUrl}/register.\n`,
    );
  }

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
      ip: origin.ip,
      userAgent: origin.userAgent,
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
      ip: origin.ip,
      userAgent: origin.userAgent,
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
      ip: origin.ip,
      userAgent: origin.userAgent,
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
      ip: origin.ip,
      userAgent: origin.userAgent,
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
      ip: origin.ip,
      userAgent: origin.userAgent,
    });
    return user;
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
      ip: origin.ip,
      userAgent: origin.userAgent,
    });
  }

  return {
    /** Resolves once all work started after earlier responses (mail included) has finished. */
    async whenIdle(): Promise<void> {
      while (background.size > 0) await Promise.all([...background]);
      await outbox.whenIdle();
    },
    register,
    login,
    /**
     * Ends a user's sign-in everywhere (INTERFACES.md): Attestly sessions and the provider's browser sessions, and
     * with `revokeGrants` the partners' tokens (`'tokens'`) or grants and tokens (`true`). For an administrator's
     * lock: `endAllSessions(id, { reason: 'account_locked', revokeGrants: true, adminUserId })`.
     */
    endAllSessions: (userId: string, options: EndSessionsOptions) => ender.endAllSessions(userId, options),
    /** Forgets sign-in failure counters left idle (the job runner calls this hourly). */
    purgeLoginFailures: () => lockout.purgeIdle(),
    findActiveUser,
    readProfile,
    profileOf,
    updateProfile,
    setProfilePhoto,
    changePassword,
    deleteAccount,
    requestEmailVerification,
    verifyEmail,
    requestPhoneVerification,
    verifyPhone,
    forgotPassword,
    resetPassword,
    async profilePhoto(key: string) {
      return UserPhoto.findOne({ where: { key }, attributes: ['content_type', 'bytes', 'updated_at'] });
    },
    async refresh(session: SessionRecord, origin: RequestOrigin) {
      const user = await findActiveUser(session.subject_id);
      const issued = await sessions.rotate(session, origin);
      await audit.recordSafely({
        event: 'user.token_refreshed',
        userId: user.id,
        ip: origin.ip,
        userAgent: origin.userAgent,
      });
      return { user, ...issued };
    },
    async logout(session: SessionRecord, origin: RequestOrigin) {
      await sessions.revoke(session.id);
      // The provider's browser sessions of the account end with it (issue 15 item 1): a browser signed in at the
      // provider through this sign-in would otherwise keep receiving codes, prompt=none included.
      await ender.endAllSessions(session.subject_id, {
        reason: 'signed_out',
        endAttestlySessions: false,
        origin,
      });
      await audit.recordSafely({
        event: 'user.logged_out',
        userId: session.subject_id,
        ip: origin.ip,
        userAgent: origin.userAgent,
      });
    },
    async revokeSession(current: SessionRecord, sessionId: string, origin: RequestOrigin) {
      const target = await db.models.Session.findOne({
        where: {
          id: sessionId,
          kind: 'user',
          subject_id: current.subject_id,
          expires_at: { [Op.gt]: clock.now() },
        },
      });
      if (!target) throw new AppError(404, 'sessions.not_found', 'Session not found');
      await sessions.revoke(target.id);
      await audit.recordSafely({
        event: 'user.session_revoked',
        userId: current.subject_id,
        ip: origin.ip,
        userAgent: origin.userAgent,
        details: { session_id: target.id },
      });
    },
  };
}
export type UserService = ReturnType<typeof createUserService>;

import type { AdminLoginResponse, AdminTokenResponse } from '@attestly/contracts';
import type { Database } from '../../../db/database';
import type { Admin } from '../../../db/models/index';
import type { Clock } from '../../../lib/clock';
import { AppError } from '../../../errors';
import { randomToken, sha256 } from '../../../lib/crypto';
import type { AuditEntry } from '../../shared/audit/service';
import {
  bearerAnswer,
  IDLE_LIMIT_MS,
  type RequestOrigin,
  type SessionRecord,
  type SessionService,
} from '../../shared/sessions/service';
import type { LoginLockout } from '../../users/accounts/lockout';
import { createPasswordCheck } from '../../users/accounts/password-check';
import { presentAdmin } from './presenters';
import { ADMIN_LOCKED, type SecondFactor } from './second-factor';
import type { TotpSetup } from './totp';

/** spec 02 §4, issue 9: admin sessions last 8 hours at most (and end after 30 minutes idle, sessions service). */
export const ADMIN_SESSION_TTL_MS = 8 * 60 * 60_000;
/** The setup token opens only setup-2fa and enable-2fa, for a short while. */
export const ADMIN_SETUP_TTL_MS = 15 * 60_000;
/** The temp_token between the password and the code. */
export const ADMIN_TEMP_TOKEN_TTL_MS = 5 * 60_000;

const SIGN_IN_AGAIN = 'Your sign-in has expired. Please sign in again.';
const signInAgain = () => new AppError(401, 'auth.invalid_temp_token', SIGN_IN_AGAIN);

/** What the sign-in needs, passed in by the administrators' service. */
export interface AdminSignInDeps {
  db: Database;
  clock: Clock;
  passwordCost: number;
  sessions: SessionService;
  audit: { recordSafely(entry: AuditEntry): Promise<void> };
  /** The users' sign-in lockout, counted under the `admin` kind (users/lockout.ts). */
  lockout: LoginLockout;
  secondFactor: SecondFactor;
  findByEmail(email: string): Promise<Admin | null>;
  findAdmin(id: string): Promise<Admin>;
  /** Enables TOTP once the first code from the new secret is right (the administrators' service). */
  confirmTotpSetup(adminId: string, code: string, origin: RequestOrigin): Promise<Admin>;
  beginTotpSetup(adminId: string): Promise<TotpSetup>;
}

/**
 * An administrator's sign-in (spec 02 §4, §7): password, then a TOTP code or a single-use backup code.
 *
 * The password step has the users' and partners' lockout (issue 21 item 3): five failures lock the pair of that
 * address and that account, not the account, so a stranger cannot lock an administrator out; the counters are keyed
 * by the address typed in and unknown addresses verify a decoy hash, so that status, body, Retry-After and timing
 * never tell who is an administrator. The second factor (second-factor.ts) has its own per-account lock, which
 * only someone who knows the password can reach or learn of.
 */
export function createAdminSignIn(deps: AdminSignInDeps) {
  const { db, clock, sessions, audit, lockout, secondFactor } = deps;
  const { Admin, AdminBackupCode } = db.models;

  async function tokenResponse(admin: Admin, origin: RequestOrigin): Promise<AdminTokenResponse> {
    const issued = await sessions.issue('admin', admin.id, {
      remember: false,
      ttlMs: ADMIN_SESSION_TTL_MS,
      ...origin,
    });
    const now = clock.now();
    await Admin.update(
      { last_login_at: now, totp_failures: 0, login_attempts: 0 },
      { where: { id: admin.id } },
    );
    admin.last_login_at = now;
    await audit.recordSafely({
      event: 'admin_login',
      adminUserId: admin.id,
      ...origin,
      details: { session_id: issued.session.id },
    });
    return {
      ...bearerAnswer(issued),
      idle_timeout_seconds: (IDLE_LIMIT_MS.admin ?? 0) / 1000,
      admin: presentAdmin(admin),
    };
  }

  // The users' and partners' password step and lockout (users/accounts/password-check.ts), under the `admin` kind.
  const checkPassword = createPasswordCheck<Admin>(
    { clock, passwordCost: deps.passwordCost, lockout, audit },
    {
      events: { failed: 'admin_login_failed', lockedOut: 'admin_locked_out' },
      subject: 'adminUserId',
      lockedMessage: ADMIN_LOCKED,
      lockedOutDetails: () => ({ reason: 'password' }),
    },
  );

  async function login(
    body: { email: string; password: string },
    origin: RequestOrigin,
  ): Promise<AdminLoginResponse> {
    const email = body.email.toLowerCase();
    const admin = await checkPassword(email, await deps.findByEmail(email), body.password, origin);
    // Said only after the password proved ownership: the second factor's lock, and a disabled account.
    await secondFactor.refuseWhileLocked(admin);
    if (admin.status !== 'active') {
      throw new AppError(403, 'auth.account_disabled', 'This administrator account is disabled');
    }
    const now = clock.now();
    if (!admin.totp_enabled_at) {
      const issued = await sessions.issue('admin_setup', admin.id, {
        remember: false,
        ttlMs: ADMIN_SETUP_TTL_MS,
        ...origin,
      });
      return {
        access_token: issued.token,
        token_type: 'Bearer',
        requires_2fa: false,
        requires_2fa_setup: true,
        temp_token: null,
        user_id: admin.id,
        expires_at: issued.session.expires_at.toISOString(),
      };
    }
    const tempToken = `att_${randomToken(32)}`;
    const expires = new Date(now.getTime() + ADMIN_TEMP_TOKEN_TTL_MS);
    await Admin.update(
      { pending_2fa_hash: sha256(tempToken), pending_2fa_expires_at: expires },
      { where: { id: admin.id } },
    );
    return {
      access_token: null,
      token_type: 'Bearer',
      requires_2fa: true,
      requires_2fa_setup: false,
      temp_token: tempToken,
      user_id: admin.id,
      expires_at: expires.toISOString(),
    };
  }

  /**
   * The second step. The request takes the pending sign-in (a conditional UPDATE on the temp token's hash) before it
   * looks at the code, so one sign-in has one code checked at a time: concurrent requests with the same temp token
   * are told to sign in again, and a lost race is never counted as a wrong code (issue 21 item 4). After a wrong or
   * spent code the pending sign-in is put back, unless the failure locked the account or a newer sign-in began.
   */
  async function verify2fa(
    body: { temp_token: string; code: string },
    origin: RequestOrigin,
  ): Promise<AdminTokenResponse> {
    const hash = sha256(body.temp_token);
    const admin = await Admin.findOne({ where: { pending_2fa_hash: hash } });
    const now = clock.now();
    if (!admin || !admin.pending_2fa_expires_at || admin.pending_2fa_expires_at <= now) throw signInAgain();
    await secondFactor.refuseWhileLocked(admin);
    if (admin.status !== 'active' || !admin.totp_enabled_at) throw signInAgain();
    const [taken] = await Admin.update(
      { pending_2fa_hash: null },
      { where: { id: admin.id, pending_2fa_hash: hash } },
    );
    if (taken !== 1) throw signInAgain();
    const attempt = await secondFactor.claim(admin, signInAgain);
    const isTotp = /^\d{6}$/.test(body.code);
    const outcome = isTotp
      ? await secondFactor.checkTotp(admin, body.code)
      : await secondFactor.checkBackupCode(admin, body.code);
    if (outcome !== 'accepted') {
      try {
        await secondFactor.refused(admin, attempt, outcome, origin, isTotp ? 'totp' : 'backup_code');
      } finally {
        // Not after a lock (it ended the pending sign-in), nor over a newer sign-in's temp token.
        await db.write(
          `UPDATE admins SET pending_2fa_hash = :hash WHERE id = :id AND pending_2fa_hash IS NULL
            AND (locked_until IS NULL OR locked_until <= :now)`,
          { hash, id: admin.id, now: clock.now() },
        );
      }
    }
    await Admin.update({ pending_2fa_expires_at: null }, { where: { id: admin.id, pending_2fa_hash: null } });
    if (!isTotp) {
      const left = await AdminBackupCode.count({ where: { admin_id: admin.id, used_at: null } });
      await audit.recordSafely({
        event: 'admin_backup_code_used',
        severity: 'warning',
        adminUserId: admin.id,
        ...origin,
        details: { backup_codes_left: left },
      });
    }
    return tokenResponse(admin, origin);
  }

  async function setup2fa(session: SessionRecord, password: string, origin: RequestOrigin) {
    const admin = await deps.findAdmin(session.subject_id);
    await secondFactor.refuseWhileLocked(admin);
    await checkPassword(
      admin.email.toLowerCase(),
      admin,
      password,
      origin,
      () =>
        new AppError(422, 'auth.wrong_password', 'Password is incorrect', [
          { path: 'password', message: 'Password is incorrect' },
        ]),
    );
    return deps.beginTotpSetup(admin.id);
  }

  async function enable2fa(session: SessionRecord, code: string, origin: RequestOrigin) {
    const admin = await deps.confirmTotpSetup(session.subject_id, code, origin);
    // The setup token has done its job.
    await sessions.revoke(session.id);
    return tokenResponse(admin, origin);
  }

  async function logout(session: SessionRecord, origin: RequestOrigin): Promise<void> {
    await sessions.revoke(session.id);
    await audit.recordSafely({
      event: 'admin_logout',
      adminUserId: session.subject_id,
      ...origin,
    });
  }

  return { login, verify2fa, setup2fa, enable2fa, logout };
}

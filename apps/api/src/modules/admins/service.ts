import { Op, fn, col, where as sqlWhere } from 'sequelize';
import * as v from 'valibot';
import {
  ADMIN_MESSAGES,
  email as emailSchema,
  newPassword,
  type AdminLoginResponse,
  type AdminTokenResponse,
} from '@attestly/contracts';
import type { Admin } from '../../db/models';
import type { Deps } from '../../deps';
import { AppError, notFound, tooManyRequests } from '../../errors';
import { toDate } from '../../db/rows';
import { randomToken, sha256 } from '../../lib/crypto';
import { decoyHash, hashPassword, verifyPassword } from '../../lib/passwords';
import type { AuditService } from '../audit/service';
import {
  IDLE_LIMIT_MS,
  type RequestOrigin,
  type SessionRecord,
  type SessionService,
} from '../sessions/service';
import { presentAdmin } from './presenters';
import {
  backupCodeHasher,
  matchTotp,
  newBackupCodes,
  newTotpSecret,
  openSecret,
  otpauthUrl,
  qrCodeDataUri,
  sealSecret,
  totpKey,
} from './totp';

/** spec 02 §4, issue 9: admin sessions last 8 hours at most (and end after 30 minutes idle, sessions service). */
export const ADMIN_SESSION_TTL_MS = 8 * 60 * 60_000;
/** The setup token opens only setup-2fa and enable-2fa, for a short while. */
export const ADMIN_SETUP_TTL_MS = 15 * 60_000;
/** The temp_token between the password and the code. */
export const ADMIN_TEMP_TOKEN_TTL_MS = 5 * 60_000;
/** Five wrong passwords, or five wrong codes, lock the account for 15 minutes (as for users, lockout.ts). */
export const ADMIN_MAX_FAILURES = 5;
export const ADMIN_LOCK_MS = 15 * 60_000;

const INVALID_CREDENTIALS = 'Invalid email or password';
const LOCKED = 'Too many failed attempts. Please try again later.';
const SIGN_IN_AGAIN = 'Your sign-in has expired. Please sign in again.';

interface Services {
  sessions: SessionService;
  audit: AuditService;
}

export interface TotpSetup {
  secret: string;
  otpauth_url: string;
  qr_code_data_uri: string;
  backup_codes: string[];
}

type Counter = 'login_attempts' | 'totp_failures';

/**
 * Administrator accounts and their sign-in (spec 02 §4, §6; DESIGN.md §7): password, then a TOTP code or a
 * single-use backup code. Every one-time thing is consumed by a conditional UPDATE whose affected-row count
 * decides, so concurrent requests cannot use a code, a step, a backup code or a temp token twice.
 */
export function createAdminService(deps: Deps, { sessions, audit }: Services) {
  const { db, clock, config } = deps;
  const { Admin, AdminBackupCode } = db.models;
  const secretKey = totpKey(config.masterKey);
  const hashBackupCode = backupCodeHasher(config.masterKey);

  async function findByEmail(email: string): Promise<Admin | null> {
    return Admin.findOne({ where: sqlWhere(fn('LOWER', col('email')), email.toLowerCase()) });
  }

  async function findAdmin(id: string): Promise<Admin> {
    const admin = await Admin.findByPk(id);
    if (!admin) throw notFound('Administrator not found');
    return admin;
  }

  function lockedFor(admin: Admin, now: Date): number {
    return admin.locked_until && admin.locked_until > now
      ? (admin.locked_until.getTime() - now.getTime()) / 1000
      : 0;
  }

  /**
   * Claims one attempt before the secret is checked (increment, then read): of N concurrent guesses only those
   * whose increment came within the limit are checked, so a burst cannot buy more than five tries.
   */
  async function claimAttempt(admin: Admin, counter: Counter, origin: RequestOrigin): Promise<number> {
    await db.write(`UPDATE admins SET ${counter} = ${counter} + 1 WHERE id = :id`, { id: admin.id });
    const [row] = await db.read<Record<string, unknown>>(
      `SELECT ${counter} AS n, locked_until FROM admins WHERE id = :id`,
      { id: admin.id },
    );
    // Locked meanwhile by a concurrent attempt: refused without checking.
    const until = toDate(row?.locked_until);
    const now = clock.now();
    if (until && until > now) throw tooManyRequests(LOCKED, (until.getTime() - now.getTime()) / 1000);
    const attempt = Number(row?.n ?? 0);
    if (attempt > ADMIN_MAX_FAILURES) await lock(admin, counter, origin);
    return attempt;
  }

  /** Locks the account once; the counters start again when the lock ends. */
  async function lock(admin: Admin, counter: Counter, origin: RequestOrigin): Promise<never> {
    const now = clock.now();
    const until = new Date(now.getTime() + ADMIN_LOCK_MS);
    // Counters are not reset here (concurrent attempts still see them over the limit); they restart when the
    // lock has ended (refuseWhileLocked) or after a success. Only the first locker writes and audits.
    const [affected] = await Admin.update(
      { locked_until: until, pending_2fa_hash: null },
      { where: { id: admin.id, [counter]: { [Op.gte]: ADMIN_MAX_FAILURES }, locked_until: null } },
    );
    if (affected > 0) {
      await audit.recordSafely({
        event: 'admin_locked_out',
        severity: 'error',
        adminUserId: admin.id,
        ip: origin.ip,
        userAgent: origin.userAgent,
        details: { reason: counter === 'login_attempts' ? 'password' : 'second_factor' },
      });
    }
    throw tooManyRequests(LOCKED, ADMIN_LOCK_MS / 1000);
  }

  async function refuseWhileLocked(admin: Admin): Promise<void> {
    const now = clock.now();
    const wait = lockedFor(admin, now);
    if (wait > 0) throw tooManyRequests(LOCKED, wait);
    if (admin.locked_until) {
      // The lock has ended: start counting again.
      await Admin.update(
        { locked_until: null, login_attempts: 0, totp_failures: 0 },
        { where: { id: admin.id, locked_until: admin.locked_until } },
      );
    }
  }

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
      ip: origin.ip,
      userAgent: origin.userAgent,
      details: { session_id: issued.session.id },
    });
    return {
      access_token: issued.token,
      token_type: 'Bearer',
      expires_at: issued.session.expires_at.toISOString(),
      idle_timeout_seconds: (IDLE_LIMIT_MS.admin ?? 0) / 1000,
      admin: presentAdmin(admin),
    };
  }

  /**
   * Checks a TOTP code against the admin's secret and records its step with a conditional UPDATE: the step must
   * be newer than the last accepted one, so a replayed code (even two requests at once) is refused.
   */
  async function acceptTotp(admin: Admin, code: string): Promise<boolean> {
    if (!admin.totp_secret) return false;
    const secret = openSecret(secretKey, admin.id, admin.totp_secret);
    const step = matchTotp(secret, code, clock.now(), admin.totp_last_step);
    if (step === null) return false;
    const affected = await db.write(
      'UPDATE admins SET totp_last_step = :step WHERE id = :id AND totp_last_step < :step',
      { id: admin.id, step },
    );
    return affected === 1;
  }

  async function acceptBackupCode(admin: Admin, code: string): Promise<boolean> {
    const affected = await db.write(
      'UPDATE admin_backup_codes SET used_at = :now WHERE admin_id = :id AND code_hash = :hash AND used_at IS NULL',
      { id: admin.id, hash: hashBackupCode(code), now: clock.now() },
    );
    return affected === 1;
  }

  /** A wrong code: counted; the fifth locks the account (and ends the pending sign-in). */
  async function wrongCode(admin: Admin, attempt: number, origin: RequestOrigin, context: string) {
    await audit.recordSafely({
      event: 'admin_2fa_failed',
      severity: 'warning',
      adminUserId: admin.id,
      ip: origin.ip,
      userAgent: origin.userAgent,
      details: { context, attempts: attempt },
    });
    if (attempt >= ADMIN_MAX_FAILURES) await lock(admin, 'totp_failures', origin);
    throw new AppError(401, 'auth.invalid_2fa_code', ADMIN_MESSAGES.invalidCode);
  }

  async function replaceBackupCodes(adminId: string, codes: string[]): Promise<void> {
    const now = clock.now();
    await db.sequelize.transaction(async (transaction) => {
      await AdminBackupCode.destroy({ where: { admin_id: adminId }, transaction });
      await AdminBackupCode.bulkCreate(
        codes.map((code) => ({
          admin_id: adminId,
          code_hash: hashBackupCode(code),
          used_at: null,
          created_at: now,
        })),
        { transaction },
      );
    });
  }

  // -------------------------------------------------------------------------------------------------------------
  // Account management (the CLI calls these; INTERFACES.md)

  async function createAdmin(input: {
    email: string;
    password: string;
    fullName?: string | null;
  }): Promise<Admin> {
    const email = v.parse(emailSchema, input.email);
    const password = v.safeParse(newPassword(), input.password);
    if (!password.success) {
      throw new AppError(422, 'validation.failed', password.issues[0].message, [
        { path: 'password', message: password.issues[0].message },
      ]);
    }
    if (await findByEmail(email)) {
      throw new AppError(409, 'admins.email_taken', 'An administrator with this email already exists');
    }
    const now = clock.now();
    const admin = await Admin.create({
      email,
      password_hash: await hashPassword(password.output, config.passwordCost),
      full_name: input.fullName?.trim() || null,
      totp_secret: null,
      totp_enabled_at: null,
      pending_2fa_hash: null,
      pending_2fa_expires_at: null,
      locked_until: null,
      last_login_at: null,
      created_at: now,
      updated_at: now,
    });
    await audit.recordSafely({ event: 'admin_created', adminUserId: admin.id, details: { email } });
    return admin;
  }

  /** Starts (or restarts, before it is enabled) TOTP setup: a new secret and ten new backup codes. */
  async function beginTotpSetup(adminId: string): Promise<TotpSetup> {
    const admin = await findAdmin(adminId);
    if (admin.totp_enabled_at) {
      throw new AppError(409, 'admins.2fa_already_enabled', 'Two-factor authentication is already enabled');
    }
    const secret = newTotpSecret();
    const codes = newBackupCodes();
    await Admin.update(
      { totp_secret: sealSecret(secretKey, admin.id, secret), totp_last_step: 0, totp_failures: 0 },
      { where: { id: admin.id } },
    );
    await replaceBackupCodes(admin.id, codes);
    const uri = otpauthUrl(admin.email, secret);
    return { secret, otpauth_url: uri, qr_code_data_uri: await qrCodeDataUri(uri), backup_codes: codes };
  }

  /** Enables TOTP once the first code from the new secret is right. */
  async function confirmTotpSetup(
    adminId: string,
    code: string,
    origin: RequestOrigin = noOrigin,
  ): Promise<Admin> {
    const admin = await findAdmin(adminId);
    await refuseWhileLocked(admin);
    if (admin.totp_enabled_at) {
      throw new AppError(409, 'admins.2fa_already_enabled', 'Two-factor authentication is already enabled');
    }
    if (!admin.totp_secret) {
      throw new AppError(409, 'admins.2fa_not_started', 'Start two-factor setup first');
    }
    const attempt = await claimAttempt(admin, 'totp_failures', origin);
    if (!(await acceptTotp(admin, code))) await wrongCode(admin, attempt, origin, 'enable');
    const now = clock.now();
    await Admin.update({ totp_enabled_at: now, totp_failures: 0 }, { where: { id: admin.id } });
    await audit.recordSafely({
      event: 'admin_2fa_enabled',
      adminUserId: admin.id,
      ip: origin.ip,
      userAgent: origin.userAgent,
    });
    return findAdmin(adminId);
  }

  /** Forgets the second factor (lost phone): the next sign-in must set it up again. Every session ends. */
  async function resetTotp(adminId: string): Promise<void> {
    const admin = await findAdmin(adminId);
    await Admin.update(
      {
        totp_secret: null,
        totp_enabled_at: null,
        totp_last_step: 0,
        totp_failures: 0,
        pending_2fa_hash: null,
      },
      { where: { id: admin.id } },
    );
    await AdminBackupCode.destroy({ where: { admin_id: admin.id } });
    await sessions.revokeAll('admin', admin.id);
    await sessions.revokeAll('admin_setup', admin.id);
    await audit.recordSafely({ event: 'admin_2fa_reset', severity: 'warning', adminUserId: admin.id });
  }

  async function disableAdmin(adminId: string): Promise<void> {
    const admin = await findAdmin(adminId);
    await Admin.update({ status: 'disabled', pending_2fa_hash: null }, { where: { id: admin.id } });
    await sessions.revokeAll('admin', admin.id);
    await sessions.revokeAll('admin_setup', admin.id);
    await audit.recordSafely({ event: 'admin_disabled', severity: 'warning', adminUserId: admin.id });
  }

  async function enableAdmin(adminId: string): Promise<void> {
    const admin = await findAdmin(adminId);
    await Admin.update(
      { status: 'active', locked_until: null, login_attempts: 0 },
      { where: { id: admin.id } },
    );
  }

  async function listAdmins(): Promise<Admin[]> {
    return Admin.findAll({ order: [['created_at', 'ASC']] });
  }

  async function setPassword(adminId: string, password: string): Promise<void> {
    const admin = await findAdmin(adminId);
    const parsed = v.safeParse(newPassword(), password);
    if (!parsed.success) throw new AppError(422, 'validation.failed', parsed.issues[0].message);
    await Admin.update(
      {
        password_hash: await hashPassword(parsed.output, config.passwordCost),
        login_attempts: 0,
        locked_until: null,
      },
      { where: { id: admin.id } },
    );
    await sessions.revokeAll('admin', admin.id);
  }

  // -------------------------------------------------------------------------------------------------------------
  // Sign-in (POST /auth/admin/*)

  async function login(
    body: { email: string; password: string },
    origin: RequestOrigin,
  ): Promise<AdminLoginResponse> {
    const admin = await findByEmail(body.email);
    if (!admin) {
      // Same work as for a real account, so the answer's timing does not reveal which addresses exist.
      await verifyPassword(body.password, await decoyHash(config.passwordCost));
      await audit.recordSafely({
        event: 'admin_login_failed',
        severity: 'warning',
        ip: origin.ip,
        userAgent: origin.userAgent,
        details: { reason: 'unknown_email' },
      });
      throw new AppError(401, 'auth.invalid_credentials', INVALID_CREDENTIALS);
    }
    await refuseWhileLocked(admin);
    const attempt = await claimAttempt(admin, 'login_attempts', origin);
    if (!(await verifyPassword(body.password, admin.password_hash))) {
      await audit.recordSafely({
        event: 'admin_login_failed',
        severity: 'warning',
        adminUserId: admin.id,
        ip: origin.ip,
        userAgent: origin.userAgent,
        details: { reason: 'wrong_password', attempts: attempt },
      });
      if (attempt >= ADMIN_MAX_FAILURES) await lock(admin, 'login_attempts', origin);
      throw new AppError(401, 'auth.invalid_credentials', INVALID_CREDENTIALS);
    }
    await Admin.update({ login_attempts: 0 }, { where: { id: admin.id } });
    if (admin.status !== 'active') {
      // Said only after the password proved ownership.
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

  async function verify2fa(
    body: { temp_token: string; code: string },
    origin: RequestOrigin,
  ): Promise<AdminTokenResponse> {
    const hash = sha256(body.temp_token);
    const admin = await Admin.findOne({ where: { pending_2fa_hash: hash } });
    const now = clock.now();
    if (!admin || !admin.pending_2fa_expires_at || admin.pending_2fa_expires_at <= now) {
      throw new AppError(401, 'auth.invalid_temp_token', SIGN_IN_AGAIN);
    }
    await refuseWhileLocked(admin);
    if (admin.status !== 'active' || !admin.totp_enabled_at) {
      throw new AppError(401, 'auth.invalid_temp_token', SIGN_IN_AGAIN);
    }
    const attempt = await claimAttempt(admin, 'totp_failures', origin);
    const isTotp = /^\d{6}$/.test(body.code);
    const ok = isTotp ? await acceptTotp(admin, body.code) : await acceptBackupCode(admin, body.code);
    if (!ok) await wrongCode(admin, attempt, origin, isTotp ? 'totp' : 'backup_code');
    // The temp token is spent by exactly one request, even if two carried valid codes at once.
    const [spent] = await Admin.update(
      { pending_2fa_hash: null, pending_2fa_expires_at: null },
      { where: { id: admin.id, pending_2fa_hash: hash } },
    );
    if (spent !== 1) throw new AppError(401, 'auth.invalid_temp_token', SIGN_IN_AGAIN);
    if (!isTotp) {
      const left = await AdminBackupCode.count({ where: { admin_id: admin.id, used_at: null } });
      await audit.recordSafely({
        event: 'admin_backup_code_used',
        severity: 'warning',
        adminUserId: admin.id,
        ip: origin.ip,
        userAgent: origin.userAgent,
        details: { backup_codes_left: left },
      });
    }
    return tokenResponse(admin, origin);
  }

  async function setup2fa(
    session: SessionRecord,
    password: string,
    origin: RequestOrigin,
  ): Promise<TotpSetup> {
    const admin = await findAdmin(session.subject_id);
    await refuseWhileLocked(admin);
    const attempt = await claimAttempt(admin, 'login_attempts', origin);
    if (!(await verifyPassword(password, admin.password_hash))) {
      if (attempt >= ADMIN_MAX_FAILURES) await lock(admin, 'login_attempts', origin);
      throw new AppError(422, 'auth.wrong_password', 'Password is incorrect', [
        { path: 'password', message: 'Password is incorrect' },
      ]);
    }
    await Admin.update({ login_attempts: 0 }, { where: { id: admin.id } });
    return beginTotpSetup(admin.id);
  }

  async function enable2fa(
    session: SessionRecord,
    code: string,
    origin: RequestOrigin,
  ): Promise<AdminTokenResponse> {
    const admin = await confirmTotpSetup(session.subject_id, code, origin);
    // The setup token has done its job.
    await sessions.revoke(session.id);
    return tokenResponse(admin, origin);
  }

  async function logout(session: SessionRecord, origin: RequestOrigin): Promise<void> {
    await sessions.revoke(session.id);
    await audit.recordSafely({
      event: 'admin_logout',
      adminUserId: session.subject_id,
      ip: origin.ip,
      userAgent: origin.userAgent,
    });
  }

  return {
    createAdmin,
    listAdmins,
    findAdmin,
    findByEmail,
    beginTotpSetup,
    confirmTotpSetup,
    resetTotp,
    disableAdmin,
    enableAdmin,
    setPassword,
    login,
    verify2fa,
    setup2fa,
    enable2fa,
    logout,
    async backupCodesLeft(adminId: string): Promise<number> {
      return AdminBackupCode.count({ where: { admin_id: adminId, used_at: null } });
    },
  };
}
export type AdminService = ReturnType<typeof createAdminService>;

const noOrigin: RequestOrigin = { ip: null, userAgent: null };

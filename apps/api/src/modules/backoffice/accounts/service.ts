import { fn, col, where as sqlWhere } from 'sequelize';
import * as v from 'valibot';
import { email as emailSchema, newPassword } from '@attestly/contracts';
import type { Admin } from '../../../db/models/index';
import type { Deps } from '../../../core/deps';
import { AppError, notFound, tooManyRequests } from '../../../errors';
import { hashPassword } from '../../../lib/passwords';
import type { AuditService } from '../../shared/audit/service';
import type { RequestOrigin, SessionService } from '../../shared/sessions/service';
import { createLoginLockout } from '../../users/accounts/lockout';
import { createSecondFactor } from './second-factor';
import { createAdminSignIn } from './sign-in';
import {
  backupCodeHasher,
  newBackupCodes,
  newTotpSecret,
  otpauthUrl,
  qrCodeDataUri,
  sealSecret,
  totpKey,
  type TotpSetup,
} from './totp';

export { ADMIN_LOCK_MS, ADMIN_MAX_FAILURES } from './second-factor';
export { ADMIN_SESSION_TTL_MS, ADMIN_SETUP_TTL_MS, ADMIN_TEMP_TOKEN_TTL_MS } from './sign-in';

export type { TotpSetup } from './totp';

interface Services {
  sessions: SessionService;
  audit: AuditService;
}

/**
 * Administrator accounts (spec 02 §4, §6; DESIGN.md §7) and, through sign-in.ts and second-factor.ts, their sign-in:
 * password, then a TOTP code or a single-use backup code. Every one-time thing is consumed by a conditional UPDATE
 * whose affected-row count decides, so concurrent requests cannot use a code, a step, a backup code or a temp token
 * twice.
 */
export function createAdminService(deps: Deps, { sessions, audit }: Services) {
  const { db, clock, config } = deps;
  const { Admin, AdminBackupCode } = db.models;
  const secretKey = totpKey(config.masterKey);
  const hashBackupCode = backupCodeHasher(config.masterKey);
  const lockout = createLoginLockout(deps, 'admin');
  const secondFactor = createSecondFactor({ db, clock, masterKey: config.masterKey, audit });

  async function findByEmail(email: string): Promise<Admin | null> {
    return Admin.findOne({ where: sqlWhere(fn('LOWER', col('email')), email.toLowerCase()) });
  }

  async function findAdmin(id: string): Promise<Admin> {
    const admin = await Admin.findByPk(id);
    if (!admin) throw notFound('Administrator not found');
    return admin;
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
    await secondFactor.refuseWhileLocked(admin);
    if (admin.totp_enabled_at) {
      throw new AppError(409, 'admins.2fa_already_enabled', 'Two-factor authentication is already enabled');
    }
    if (!admin.totp_secret) {
      throw new AppError(409, 'admins.2fa_not_started', 'Start two-factor setup first');
    }
    const attempt = await secondFactor.claim(admin, busy);
    const outcome = await secondFactor.checkTotp(admin, code);
    if (outcome !== 'accepted') await secondFactor.refused(admin, attempt, outcome, origin, 'enable');
    const now = clock.now();
    await Admin.update({ totp_enabled_at: now, totp_failures: 0 }, { where: { id: admin.id } });
    await audit.recordSafely({
      event: 'admin_2fa_enabled',
      adminUserId: admin.id,
      ...origin,
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
        totp_failures: 0,
      },
      { where: { id: admin.id } },
    );
    // A new password lifts every sign-in lock on the account, as a user's password reset does.
    await lockout.reset(admin.email.toLowerCase());
    await sessions.revokeAll('admin', admin.id);
  }

  // Sign-in (POST /auth/admin/*): sign-in.ts.
  const signIn = createAdminSignIn({
    db,
    clock,
    passwordCost: config.passwordCost,
    sessions,
    audit,
    lockout,
    secondFactor,
    findByEmail,
    findAdmin,
    confirmTotpSetup,
    beginTotpSetup,
  });

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
    ...signIn,
    async backupCodesLeft(adminId: string): Promise<number> {
      return AdminBackupCode.count({ where: { admin_id: adminId, used_at: null } });
    },
  };
}
export type AdminService = ReturnType<typeof createAdminService>;

const noOrigin: RequestOrigin = { ip: null, userAgent: null };
/** Concurrent first codes already hold every check left (second-factor.ts): this one is not looked at. */
const busy = () => tooManyRequests('Too many codes at once. Please try again in a moment.', 1);

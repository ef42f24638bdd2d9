import { Op, QueryTypes } from 'sequelize';
import { ADMIN_MESSAGES } from '@attestly/contracts';
import type { Database } from '../../../db/database';
import type { Admin } from '../../../db/models/index';
import { toDate } from '../../../db/rows';
import type { Clock } from '../../../lib/clock';
import { AppError, tooManyRequests } from '../../../errors';
import type { AuditEntry } from '../../shared/audit/service';
import type { RequestOrigin } from '../../shared/sessions/service';
import { backupCodeHasher, matchTotp, openSecret, totpKey } from './totp';

/** Five wrong codes lock the account for 15 minutes (the password step has its own lockout, users/lockout.ts). */
export const ADMIN_MAX_FAILURES = 5;
export const ADMIN_LOCK_MS = 15 * 60_000;
export const ADMIN_LOCKED = 'Too many failed attempts. Please try again later.';

/** What the second factor needs: the database, the clock, the master key and somewhere to audit. */
export interface SecondFactorDeps {
  db: Database;
  clock: Clock;
  masterKey: Buffer;
  audit: { recordSafely(entry: AuditEntry): Promise<void> };
}

/**
 * The outcome of checking a code: `accepted` (this request used it), `spent` (a right code that a concurrent or
 * earlier request already used: refused, but no guess — issue 21 item 4) or `wrong`.
 */
export type CodeCheck = 'accepted' | 'spent' | 'wrong';

const CLAIM =
  'UPDATE admins SET totp_failures = totp_failures + 1 WHERE id = :id RETURNING totp_failures, locked_until';
const GIVE_BACK =
  'UPDATE admins SET totp_failures = CASE WHEN totp_failures > 0 THEN totp_failures - 1 ELSE 0 END WHERE id = :id';

/**
 * The second factor of an administrator's sign-in (TOTP or a backup code) and its own lockout. Only someone who
 * knows the password reaches it, so it is counted per account: five wrong codes lock the account for 15 minutes.
 * Each check first claims its place with an atomic increment (UPDATE … RETURNING) and is refused unchecked past the
 * limit, so concurrent guesses get no more than five checks on any replica; a check that turns out right, or right
 * but already used by a racing request, gives its place back — only wrong codes count.
 */
export function createSecondFactor({ db, clock, masterKey, audit }: SecondFactorDeps) {
  const { Admin } = db.models;
  const secretKey = totpKey(masterKey);
  const hashBackupCode = backupCodeHasher(masterKey);

  function lockedFor(admin: Pick<Admin, 'locked_until'>, now = clock.now()): number {
    const until = admin.locked_until;
    return until && until > now ? (until.getTime() - now.getTime()) / 1000 : 0;
  }

  /** Refuses while the second-factor lock runs; once it has ended, the count starts again. */
  async function refuseWhileLocked(admin: Admin): Promise<void> {
    const wait = lockedFor(admin);
    if (wait > 0) throw tooManyRequests(ADMIN_LOCKED, wait);
    if (admin.locked_until) {
      await Admin.update(
        { locked_until: null, totp_failures: 0 },
        { where: { id: admin.id, locked_until: admin.locked_until } },
      );
      admin.locked_until = null;
    }
  }

  async function increment(id: string): Promise<{ failures: number; lockedUntil: Date | null }> {
    const row = db.atomic
      ? await db.atomic((sql) => sql.all<Record<string, unknown>>(CLAIM, { id })[0])
      : (
          await db.sequelize.query<Record<string, unknown>>(CLAIM, {
            replacements: { id },
            type: QueryTypes.SELECT,
          })
        )[0];
    return { failures: Number(row?.totp_failures ?? 0), lockedUntil: toDate(row?.locked_until) };
  }

  async function giveBack(admin: Admin): Promise<void> {
    await db.write(GIVE_BACK, { id: admin.id });
  }

  /**
   * Claims one check before the code is looked at. Refused (and given back) while locked, or when concurrent checks
   * already hold every place left: then `busy()` says what to answer.
   */
  async function claim(admin: Admin, busy: () => AppError): Promise<number> {
    const { failures, lockedUntil } = await increment(admin.id);
    const wait = lockedFor({ locked_until: lockedUntil });
    if (wait > 0 || failures > ADMIN_MAX_FAILURES) {
      await giveBack(admin);
      throw wait > 0 ? tooManyRequests(ADMIN_LOCKED, wait) : busy();
    }
    return failures;
  }

  /**
   * A TOTP code: its step must be newer than the last one accepted, and is recorded with a conditional UPDATE, so
   * of two requests with one code exactly one is accepted; the other finds it spent.
   */
  async function checkTotp(admin: Admin, code: string): Promise<CodeCheck> {
    if (!admin.totp_secret) return 'wrong';
    const secret = openSecret(secretKey, admin.id, admin.totp_secret);
    const now = clock.now();
    const step = matchTotp(secret, code, now, admin.totp_last_step);
    if (step === null) return matchTotp(secret, code, now, 0) === null ? 'wrong' : 'spent';
    const affected = await db.write(
      'UPDATE admins SET totp_last_step = :step WHERE id = :id AND totp_last_step < :step',
      { id: admin.id, step },
    );
    return affected === 1 ? 'accepted' : 'spent';
  }

  async function checkBackupCode(admin: Admin, code: string): Promise<CodeCheck> {
    const hash = hashBackupCode(code);
    const affected = await db.write(
      'UPDATE admin_backup_codes SET used_at = :now WHERE admin_id = :id AND code_hash = :hash AND used_at IS NULL',
      { id: admin.id, hash, now: clock.now() },
    );
    if (affected === 1) return 'accepted';
    const [used] = await db.read<{ n: number }>(
      'SELECT COUNT(*) AS n FROM admin_backup_codes WHERE admin_id = :id AND code_hash = :hash',
      { id: admin.id, hash },
    );
    return Number(used?.n ?? 0) > 0 ? 'spent' : 'wrong';
  }

  /** Locks the account once (only the first locker writes and audits); ends any pending sign-in. */
  async function lock(admin: Admin, origin: RequestOrigin): Promise<never> {
    const until = new Date(clock.now().getTime() + ADMIN_LOCK_MS);
    const [affected] = await Admin.update(
      { locked_until: until, pending_2fa_hash: null },
      { where: { id: admin.id, totp_failures: { [Op.gte]: ADMIN_MAX_FAILURES }, locked_until: null } },
    );
    if (affected > 0) {
      await audit.recordSafely({
        event: 'admin_locked_out',
        severity: 'error',
        adminUserId: admin.id,
        ...origin,
        details: { reason: 'second_factor', locked_for_seconds: ADMIN_LOCK_MS / 1000 },
      });
    }
    throw tooManyRequests(ADMIN_LOCKED, ADMIN_LOCK_MS / 1000);
  }

  /**
   * Settles a claimed check that was not accepted: a spent code gives its place back; a wrong one is audited and
   * counted, and the fifth locks the account. Either way the answer is the same "invalid code".
   */
  async function refused(
    admin: Admin,
    attempt: number,
    outcome: Exclude<CodeCheck, 'accepted'>,
    origin: RequestOrigin,
    context: string,
  ): Promise<never> {
    if (outcome === 'spent') {
      await giveBack(admin);
    } else {
      await audit.recordSafely({
        event: 'admin_2fa_failed',
        severity: 'warning',
        adminUserId: admin.id,
        ...origin,
        details: { context, attempts: attempt },
      });
      if (attempt >= ADMIN_MAX_FAILURES) await lock(admin, origin);
    }
    throw new AppError(401, 'auth.invalid_2fa_code', ADMIN_MESSAGES.invalidCode);
  }

  return {
    lockedFor,
    refuseWhileLocked,
    claim,
    checkTotp,
    checkBackupCode,
    refused,
    /** A code was accepted: wrong codes before it are forgotten. */
    async succeeded(admin: Admin): Promise<void> {
      await Admin.update({ totp_failures: 0 }, { where: { id: admin.id } });
    },
  };
}
export type SecondFactor = ReturnType<typeof createSecondFactor>;

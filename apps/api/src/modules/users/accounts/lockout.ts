import { QueryTypes } from 'sequelize';
import { sha256 } from '../../../lib/crypto';
import type { Deps } from '../../../core/deps';

/**
 * Sign-in lockout that protects passwords without letting strangers lock people out (issue 16 item 5; the approach
 * of Keycloak's brute-force detection and Entra ID's smart lockout). Failures are counted three ways:
 *
 * - per (account, client address): the fifth failure locks that pair for 15 minutes. A stranger who guesses wrong
 *   locks out only themselves; the owner, from their own address, still signs in.
 * - per client address, whatever the account: the fiftieth failure without a 15-minute pause locks the address out
 *   of sign-in for 15 minutes (password spraying; high enough for an office behind one NAT address, and above the
 *   per-address limit of 30 sign-in attempts a minute, which answers bursts first).
 * - per account, from every address: from the tenth failure on, each failure makes the account wait before the
 *   next attempt (1 s, 2 s, 4 s … capped at a minute), and the hundredth locks it for 15 minutes. Reaching that
 *   takes a distributed attack (at most 49 failures per address before its own lock), and even then
 *   the lock ends on its own; a password reset lifts every lock on the account.
 *
 * The subject is the address typed in, not an account row, so unknown addresses are counted and answered exactly
 * like real accounts. Each attempt first claims its place with one atomic increment per counter and is decided on
 * the returned value (never read-then-write), so a burst of concurrent guesses gets exactly as many password checks
 * as the limits allow, on SQLite and PostgreSQL alike. A counter left idle for its `idleMs` starts again from one.
 */
export const LOGIN_LOCKOUT = {
  pair: { limit: 5, lockMs: 15 * 60_000, idleMs: 15 * 60_000 },
  address: { limit: 50, lockMs: 15 * 60_000, idleMs: 15 * 60_000 },
  account: {
    delayFrom: 10,
    firstDelayMs: 1000,
    maxDelayMs: 60_000,
    limit: 100,
    lockMs: 15 * 60_000,
    idleMs: 24 * 60 * 60_000,
  },
} as const;

export type LockoutKind = 'user' | 'partner' | 'admin';
type CounterName = 'pair' | 'address' | 'account';

interface CounterRow {
  failures: number;
  blocked_until: number;
}

export interface LoginClaim {
  /** Seconds to wait when the attempt is refused without checking the password; 0 when it may go ahead. */
  refusedFor: number;
  failures: Record<CounterName, number>;
}

export interface FailureOutcome {
  /** Seconds of the lock this failure started (answer 429); 0 when the answer is a plain 401. */
  lockedFor: number;
  /** Which counter locked, for the audit entry. */
  locked: CounterName | null;
  /** Failures counted for the account from every address (shown to administrators). */
  accountFailures: number;
  /** When the account-wide lock ends, if this failure started it. */
  accountLockedUntil: Date | null;
}

/** A counter's row: SQLite and PostgreSQL share this statement (ON CONFLICT … RETURNING, SQLite ≥ 3.35). */
const CLAIM = `INSERT INTO login_failures (key, account_key, failures, last_failure_at, blocked_until)
  VALUES (:key, :accountKey, 1, :now, 0)
  ON CONFLICT (key) DO UPDATE SET
    failures = CASE
      WHEN login_failures.blocked_until > :now THEN login_failures.failures
      WHEN login_failures.last_failure_at <= :idleBefore THEN 1
      WHEN login_failures.blocked_until > 0 AND login_failures.failures >= :limit THEN 1
      ELSE login_failures.failures + 1 END,
    blocked_until = CASE WHEN login_failures.blocked_until > :now THEN login_failures.blocked_until ELSE 0 END,
    last_failure_at = CASE WHEN login_failures.blocked_until > :now THEN login_failures.last_failure_at ELSE :now END
  RETURNING failures, blocked_until`;

const BLOCK = 'UPDATE login_failures SET blocked_until = :until WHERE key = :key AND blocked_until < :until';

export function createLoginLockout({ db, clock }: Pick<Deps, 'db' | 'clock'>, kind: LockoutKind) {
  const accountKey = (email: string) => sha256(`${kind}:account:${email}`);
  const keys = (email: string, ip: string | null) => ({
    pair: sha256(`${kind}:pair:${email}\n${ip ?? 'unknown'}`),
    address: sha256(`${kind}:address:${ip ?? 'unknown'}`),
    account: accountKey(email),
  });

  /** Runs statements that return rows, atomically each (a group-committed batch on SQLite). */
  async function claimRows(
    statements: Array<{ key: string; accountKey: string | null; limit: number; idleMs: number }>,
  ): Promise<CounterRow[]> {
    const now = clock.now().getTime();
    const params = statements.map((each) => ({
      key: each.key,
      accountKey: each.accountKey,
      limit: each.limit,
      now,
      idleBefore: now - each.idleMs,
    }));
    if (db.atomic) {
      return db.atomic((sql) => params.map((each) => sql.all<CounterRow>(CLAIM, each)[0] as CounterRow));
    }
    const rows: CounterRow[] = [];
    for (const each of params) {
      const [row] = await db.sequelize.query<CounterRow>(CLAIM, {
        replacements: each,
        type: QueryTypes.SELECT,
      });
      rows.push(row as CounterRow);
    }
    return rows;
  }

  const toNumber = (row: CounterRow | undefined) => ({
    failures: Number(row?.failures ?? 0),
    blockedUntil: Number(row?.blocked_until ?? 0),
  });

  /**
   * Claims one attempt for `email` from `ip` before the password is checked. Refused (without counting) while any
   * of the three counters is locked or waiting, or when concurrent attempts already used up the pair's, the
   * address's or the account's allowance.
   */
  async function claim(email: string, ip: string | null): Promise<LoginClaim> {
    const key = keys(email, ip);
    const [pair, address, account] = (
      await claimRows([
        { key: key.pair, accountKey: key.account, ...LOGIN_LOCKOUT.pair },
        { key: key.address, accountKey: null, ...LOGIN_LOCKOUT.address },
        { key: key.account, accountKey: key.account, ...LOGIN_LOCKOUT.account },
      ])
    ).map(toNumber) as [
      ReturnType<typeof toNumber>,
      ReturnType<typeof toNumber>,
      ReturnType<typeof toNumber>,
    ];
    const now = clock.now().getTime();
    const failures = { pair: pair.failures, address: address.failures, account: account.failures };
    const waits = [pair, address, account]
      .map((counter) => counter.blockedUntil - now)
      .filter((remaining) => remaining > 0);
    if (waits.length) return { refusedFor: Math.ceil(Math.max(...waits) / 1000), failures };
    // Over the limit without a lock yet: a concurrent attempt reached the limit and is about to lock.
    if (pair.failures > LOGIN_LOCKOUT.pair.limit)
      return { refusedFor: LOGIN_LOCKOUT.pair.lockMs / 1000, failures };
    if (address.failures > LOGIN_LOCKOUT.address.limit)
      return { refusedFor: LOGIN_LOCKOUT.address.lockMs / 1000, failures };
    if (account.failures > LOGIN_LOCKOUT.account.limit)
      return { refusedFor: LOGIN_LOCKOUT.account.lockMs / 1000, failures };
    return { refusedFor: 0, failures };
  }

  async function block(key: string, until: number): Promise<void> {
    await db.write(BLOCK, { key, until });
  }

  /** The claimed attempt had a wrong password (or named no account): decides on the counts the claim returned. */
  async function failed(email: string, ip: string | null, attempt: LoginClaim): Promise<FailureOutcome> {
    const key = keys(email, ip);
    const now = clock.now().getTime();
    const { pair, address, account } = attempt.failures;
    const outcome: FailureOutcome = {
      lockedFor: 0,
      locked: null,
      accountFailures: account,
      accountLockedUntil: null,
    };
    if (account >= LOGIN_LOCKOUT.account.limit) {
      const until = now + LOGIN_LOCKOUT.account.lockMs;
      await block(key.account, until);
      Object.assign(outcome, {
        lockedFor: LOGIN_LOCKOUT.account.lockMs / 1000,
        locked: 'account',
        accountLockedUntil: new Date(until),
      });
    } else if (account >= LOGIN_LOCKOUT.account.delayFrom) {
      const { firstDelayMs, maxDelayMs, delayFrom } = LOGIN_LOCKOUT.account;
      await block(key.account, now + Math.min(firstDelayMs * 2 ** (account - delayFrom), maxDelayMs));
    }
    if (address >= LOGIN_LOCKOUT.address.limit) {
      await block(key.address, now + LOGIN_LOCKOUT.address.lockMs);
      if (!outcome.locked)
        Object.assign(outcome, { lockedFor: LOGIN_LOCKOUT.address.lockMs / 1000, locked: 'address' });
    }
    if (pair >= LOGIN_LOCKOUT.pair.limit) {
      await block(key.pair, now + LOGIN_LOCKOUT.pair.lockMs);
      if (!outcome.locked)
        Object.assign(outcome, { lockedFor: LOGIN_LOCKOUT.pair.lockMs / 1000, locked: 'pair' });
    }
    return outcome;
  }

  return {
    claim,
    failed,
    /** A right password: the pair and the account start afresh; the address gives back the attempt it lent. */
    async succeeded(email: string, ip: string | null): Promise<void> {
      const key = keys(email, ip);
      await db.write('DELETE FROM login_failures WHERE key IN (:pair, :account)', {
        pair: key.pair,
        account: key.account,
      });
      await db.write(
        'UPDATE login_failures SET failures = failures - 1 WHERE key = :address AND failures > 0 AND blocked_until = 0',
        { address: key.address },
      );
    },
    /** Lifts every lock and count on an account (a password reset proves ownership). */
    async reset(email: string): Promise<void> {
      await db.write('DELETE FROM login_failures WHERE account_key = :accountKey', {
        accountKey: accountKey(email),
      });
    },
    /** Forgets counters idle for longer than any of their windows (the job runner calls this). */
    async purgeIdle(): Promise<number> {
      const now = clock.now().getTime();
      return db.write('DELETE FROM login_failures WHERE last_failure_at < :before AND blocked_until < :now', {
        before: now - LOGIN_LOCKOUT.account.idleMs,
        now,
      });
    },
  };
}
export type LoginLockout = ReturnType<typeof createLoginLockout>;

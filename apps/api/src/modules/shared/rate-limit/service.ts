import { QueryTypes } from 'sequelize';
import { sha256 } from '../../../lib/crypto';
import type { Deps } from '../../../core/deps';

export interface RateLimitRule {
  /** Bucket name, e.g. `login:ip`. */
  name: string;
  limit: number;
  windowMs: number;
}

export interface RateLimitState {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
}

/**
 * The row key of a counter. The subject (an IP address, an e-mail address, a user id) is hashed: the table then
 * holds no personal data, and long subjects cannot collide by truncation.
 */
export function rateLimitKey(name: string, subject: string): string {
  return `${name}:${sha256(subject)}`;
}

/**
 * Fixed-window counters in the database, so limits hold across replicas and restarts
 * (DESIGN.md §2). SQLite ≥ 3.35 and PostgreSQL share the same `ON CONFLICT … RETURNING` statement.
 */
export function createRateLimiter({ db, clock }: Pick<Deps, 'db' | 'clock'>) {
  function window(rule: RateLimitRule) {
    const now = clock.now().getTime();
    const start = Math.floor(now / rule.windowMs) * rule.windowMs;
    return { start, retryAfterSeconds: Math.ceil((start + rule.windowMs - now) / 1000) };
  }

  /**
   * Runs an upsert and reads back the row's count and window_start in the same statement (RETURNING), so that the
   * count decides exactly: of N racing hits, exactly `limit` are allowed, on every replica.
   */
  async function upsert(sql: string, replacements: Record<string, unknown>) {
    let rows: Array<{ count: number; window_start: number }>;
    if (db.atomic) {
      // SQLite: the hot-path connection runs it synchronously, rows and all (Sequelize's driver drops them).
      rows = await db.atomic((statements) =>
        statements.all<{ count: number; window_start: number }>(
          `${sql} RETURNING count, window_start`,
          replacements,
        ),
      );
    } else {
      rows = await db.sequelize.query(`${sql} RETURNING count, window_start`, {
        replacements,
        type: QueryTypes.SELECT,
      });
    }
    return { count: Number(rows[0]?.count ?? 1), windowStart: Number(rows[0]?.window_start ?? 0) };
  }

  return {
    /** Counts one hit and says whether it is within the limit. */
    async hit(rule: RateLimitRule, subject: string): Promise<RateLimitState> {
      const { start, retryAfterSeconds } = window(rule);
      const { count } = await upsert(
        `INSERT INTO rate_limits (key, window_start, count) VALUES (:key, :start, 1)
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN rate_limits.window_start = excluded.window_start THEN rate_limits.count + 1 ELSE 1 END,
           window_start = excluded.window_start`,
        { key: rateLimitKey(rule.name, subject), start },
      );
      return { allowed: count <= rule.limit, count, retryAfterSeconds };
    },
    /** Reads a counter without counting. */
    async peek(rule: RateLimitRule, subject: string): Promise<RateLimitState> {
      const { start, retryAfterSeconds } = window(rule);
      const rows = await db.sequelize.query<{ count: number; window_start: number }>(
        'SELECT count, window_start FROM rate_limits WHERE key = :key',
        { replacements: { key: rateLimitKey(rule.name, subject) }, type: QueryTypes.SELECT },
      );
      const row = rows[0];
      const count = row && Number(row.window_start) === start ? Number(row.count) : 0;
      return { allowed: count < rule.limit, count, retryAfterSeconds };
    },

    /**
     * Lockout counters for subjects that have no row of their own to keep them in. The rules are those of a user's
     * `login_attempts` / `locked_until`: after `rule.limit` consecutive failures the subject is locked for
     * `rule.windowMs`, and the first failure after a lock ends counts from one again. While counting, `count` holds
     * the failures so far and `window_start` the time of the last one (so `purgeExpired` forgets only counters left
     * idle for its whole horizon); while locked, `count` is 0 and `window_start` is the end of the lock.
     */
    lockout: {
      /** Seconds until the lock on `subject` ends; 0 when not locked. */
      async lockedFor(rule: RateLimitRule, subject: string): Promise<number> {
        const rows = await db.sequelize.query<{ count: number; window_start: number }>(
          'SELECT count, window_start FROM rate_limits WHERE key = :key',
          { replacements: { key: rateLimitKey(rule.name, subject) }, type: QueryTypes.SELECT },
        );
        const row = rows[0];
        if (!row || Number(row.count) !== 0) return 0;
        const remaining = Number(row.window_start) - clock.now().getTime();
        return remaining > 0 ? Math.ceil(remaining / 1000) : 0;
      },
      /** Counts one failure; returns the seconds of the lock it started, or 0. */
      async fail(rule: RateLimitRule, subject: string): Promise<number> {
        const key = rateLimitKey(rule.name, subject);
        const now = clock.now().getTime();
        const { count } = await upsert(
          `INSERT INTO rate_limits (key, window_start, count) VALUES (:key, :now, 1)
           ON CONFLICT (key) DO UPDATE SET
             count = CASE WHEN rate_limits.count = 0 THEN 1 ELSE rate_limits.count + 1 END,
             window_start = excluded.window_start`,
          { key, now },
        );
        if (count < rule.limit) return 0;
        await db.sequelize.query('UPDATE rate_limits SET count = 0, window_start = :until WHERE key = :key', {
          replacements: { key, until: now + rule.windowMs },
        });
        return Math.ceil(rule.windowMs / 1000);
      },
    },

    async reset(rule: RateLimitRule, subject: string): Promise<void> {
      await db.sequelize.query('DELETE FROM rate_limits WHERE key = :key', {
        replacements: { key: rateLimitKey(rule.name, subject) },
      });
    },
    /** Deletes fixed windows that ended long ago; lockout rows whose lock is still running stay. */
    async purgeExpired(maxWindowMs: number): Promise<void> {
      await db.sequelize.query('DELETE FROM rate_limits WHERE window_start < :before', {
        replacements: { before: clock.now().getTime() - maxWindowMs },
      });
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;

import { QueryTypes } from 'sequelize';
import type { Deps } from '../../deps';

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
 * Fixed-window counters in the database, so limits hold across replicas and restarts
 * (DESIGN.md §2). SQLite ≥ 3.35 and PostgreSQL share the same `ON CONFLICT … RETURNING` statement.
 */
export function createRateLimiter({ db, clock }: Pick<Deps, 'db' | 'clock'>) {
  function window(rule: RateLimitRule) {
    const now = clock.now().getTime();
    const start = Math.floor(now / rule.windowMs) * rule.windowMs;
    return { start, retryAfterSeconds: Math.ceil((start + rule.windowMs - now) / 1000) };
  }

  return {
    /** Counts one hit and says whether it is within the limit. */
    async hit(rule: RateLimitRule, subject: string): Promise<RateLimitState> {
      const { start, retryAfterSeconds } = window(rule);
      const key = `${rule.name}:${subject}`.slice(0, 200);
      const upsert = `INSERT INTO rate_limits (key, window_start, count) VALUES (:key, :start, 1)
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN rate_limits.window_start = excluded.window_start THEN rate_limits.count + 1 ELSE 1 END,
           window_start = excluded.window_start`;
      let rows: Array<{ count: number }>;
      if (db.dialect === 'postgres') {
        rows = await db.sequelize.query(`${upsert} RETURNING count`, { replacements: { key, start }, type: QueryTypes.SELECT });
      } else {
        // Sequelize's SQLite driver drops RETURNING rows of an INSERT, so read the counter back. Within one SQLite
        // file a concurrent hit can only make the figure read higher, which errs on the safe side.
        await db.sequelize.query(upsert, { replacements: { key, start } });
        rows = await db.sequelize.query('SELECT count FROM rate_limits WHERE key = :key', {
          replacements: { key },
          type: QueryTypes.SELECT,
        });
      }
      const count = Number(rows[0]?.count ?? 1);
      return { allowed: count <= rule.limit, count, retryAfterSeconds };
    },
    /** Reads a counter without counting. */
    async peek(rule: RateLimitRule, subject: string): Promise<RateLimitState> {
      const { start, retryAfterSeconds } = window(rule);
      const rows = await db.sequelize.query<{ count: number; window_start: number }>(
        'SELECT count, window_start FROM rate_limits WHERE key = :key',
        { replacements: { key: `${rule.name}:${subject}`.slice(0, 200) }, type: QueryTypes.SELECT },
      );
      const row = rows[0];
      const count = row && Number(row.window_start) === start ? Number(row.count) : 0;
      return { allowed: count < rule.limit, count, retryAfterSeconds };
    },
    async reset(rule: RateLimitRule, subject: string): Promise<void> {
      await db.sequelize.query('DELETE FROM rate_limits WHERE key = :key', {
        replacements: { key: `${rule.name}:${subject}`.slice(0, 200) },
      });
    },
    async purgeExpired(maxWindowMs: number): Promise<void> {
      await db.sequelize.query('DELETE FROM rate_limits WHERE window_start < :before', {
        replacements: { before: clock.now().getTime() - maxWindowMs },
      });
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;

import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { ArchiveError } from './archive';

/**
 * A restore loads every table exactly as archived, derived tables included, so the database's own triggers must not
 * run while it does: the partner statistics triggers (migration 20261126030100) would count each restored
 * verification into partner_stats_daily and partner_stats_countries, and the archive's own roll-up rows would then
 * collide with those counts (a unique-key error) or, without a key, double them.
 *
 * Why not skip the roll-ups and recompute them from the verifications instead: they are not derivable. They outlive
 * the verifications they counted (an account deletion removes its verifications, not the partner's figures), and
 * the measured API response times exist only there. So the triggers are suspended for the load, inside the restore's
 * transaction, and reinstated before the restored tables are checked against the archive and committed; a restore
 * that fails rolls the suspension back with everything else. Every trigger is treated so, not only today's: any
 * trigger that derives rows from others would double them the same way.
 */
export interface SuspendedTriggers {
  /** How many triggers were suspended (for tests and reports). */
  count: number;
  /** Puts every suspended trigger back exactly as it was. */
  reinstate(): Promise<void>;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * SQLite cannot disable a trigger: each one is dropped and later re-created from the very statement SQLite keeps for
 * it in sqlite_master. Must be called inside the restore's transaction (DDL is transactional in SQLite).
 */
export function suspendSqliteTriggers(handle: BetterSqlite3.Database): SuspendedTriggers {
  if (!handle.inTransaction) throw new Error('suspendSqliteTriggers needs an open transaction');
  const triggers = handle
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
    .all() as Array<{ name: string; sql: string }>;
  for (const trigger of triggers) handle.exec(`DROP TRIGGER ${quote(trigger.name)}`);
  return {
    count: triggers.length,
    async reinstate() {
      for (const trigger of triggers) handle.exec(trigger.sql);
    },
  };
}

/** pg_trigger.tgenabled → the clause that sets it again. 'D' (disabled) triggers are left alone. */
const ENABLE_CLAUSE: Record<string, string> = {
  O: 'ENABLE TRIGGER',
  R: 'ENABLE REPLICA TRIGGER',
  A: 'ENABLE ALWAYS TRIGGER',
};

/**
 * PostgreSQL: every enabled user trigger of the schema's tables is disabled by name (`ALTER TABLE … DISABLE
 * TRIGGER`, transactional) and later enabled again in its original mode. Internal triggers, those that enforce
 * foreign keys, keep running. Needs the table owner's rights (the role that ran the migrations), not a superuser's
 * (`session_replication_role` would need one, and would switch off the foreign-key checks too).
 */
export async function suspendPgTriggers(client: pg.ClientBase): Promise<SuspendedTriggers> {
  const { rows: triggers } = await client.query<{ table_name: string; name: string; enabled: string }>(
    `SELECT c.relname AS table_name, t.tgname AS name, t.tgenabled AS enabled
       FROM pg_trigger t
       JOIN pg_class c ON c.oid = t.tgrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND NOT t.tgisinternal AND t.tgenabled <> 'D'
      ORDER BY c.relname, t.tgname`,
  );
  const alter = async (sql: string) => {
    try {
      await client.query(sql);
    } catch (error) {
      if ((error as { code?: string }).code === '42501')
        throw new ArchiveError(
          `the database role cannot alter the tables' triggers (${(error as Error).message}); restore as the role that owns the tables (the one that ran the migrations)`,
        );
      throw error;
    }
  };
  for (const trigger of triggers)
    await alter(`ALTER TABLE ${quote(trigger.table_name)} DISABLE TRIGGER ${quote(trigger.name)}`);
  return {
    count: triggers.length,
    async reinstate() {
      for (const trigger of triggers) {
        const clause = ENABLE_CLAUSE[trigger.enabled] ?? 'ENABLE TRIGGER';
        await alter(`ALTER TABLE ${quote(trigger.table_name)} ${clause} ${quote(trigger.name)}`);
      }
    },
  };
}

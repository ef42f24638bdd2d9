import { Op } from 'sequelize';
import type { AuditEvent } from '@attestly/contracts';
import { sha256 } from '../../../lib/crypto';
import type { Deps } from '../../../core/deps';
import { pgLiteral } from '../../../db/database';

/**
 * The audit trail (DESIGN.md §3): append-only and hash-chained. Each row stores the hash of its predecessor and
 * `hash = SHA-256(prev_hash + "\n" + canonical JSON of the row)`, so editing, deleting or reordering rows breaks the
 * chain, which `verifyAuditChain` detects. Writers are serialised by a database lock, so the chain never forks
 * even with several replicas (a unique index on prev_hash backs that up).
 */
export const GENESIS_HASH = '0'.repeat(64);
const PG_AUDIT_LOCK_KEY = 7212540002;
/** The columns the hash covers, in the order it covers them: every column but the chain itself. */
const CHAINED_COLUMNS = [
  'event_type',
  'severity',
  'user_id',
  'partner_id',
  'admin_user_id',
  'ip_address',
  'user_agent',
  'details',
  'created_at',
] as const;
const AUDIT_COLUMNS = [...CHAINED_COLUMNS, 'prev_hash', 'hash'] as const;
/** One row, `:column` placeholders (SQLite's append). */
const INSERT_AUDIT_ROW = `INSERT INTO audit_logs (${AUDIT_COLUMNS.join(', ')})
  VALUES (${AUDIT_COLUMNS.map((column) => `:${column}`).join(', ')})`;
/** The newest row's hash: what the next row chains to. */
const CHAIN_HEAD = 'SELECT hash FROM audit_logs ORDER BY id DESC LIMIT 1';

export type Severity = 'info' | 'warning' | 'error' | 'critical';

export interface AuditEntry {
  event: AuditEvent;
  severity?: Severity;
  userId?: string | null;
  partnerId?: string | null;
  adminUserId?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  details?: Record<string, unknown>;
}

export interface ChainedFields {
  event_type: string;
  severity: string;
  user_id: string | null;
  partner_id: string | null;
  admin_user_id: string | null;
  ip_address: string | null;
  user_agent: string | null;
  details: string;
  created_at: string;
}

const chainedValues = (fields: ChainedFields) => CHAINED_COLUMNS.map((column) => fields[column]);

/** The row's fields as its hash covers them (everything but the chain itself). */
function canonicalFields(fields: ChainedFields): string {
  return JSON.stringify(chainedValues(fields));
}

function rowHash(prevHash: string, fields: ChainedFields): string {
  return sha256(`${prevHash}\n${canonicalFields(fields)}`);
}

/**
 * PostgreSQL: a batch appended in ONE round trip (db.script), where it took five (BEGIN, the lock, the chain head,
 * the INSERT, COMMIT). The two statements run as one transaction: the advisory lock serialises writers across
 * replicas and is held to its end; the INSERT, a statement of its own, takes its snapshot once the lock is granted,
 * so it reads the head the previous writer committed. The hashes are chained in SQL from that head with the same
 * formula as `rowHash` (SHA-256 over the UTF-8 of `prev_hash + "\n" + canonical fields`, hex), the canonical text
 * made here; `verifyAuditChain` recomputes them in JavaScript. Rows are inserted in batch order, so ids follow the
 * chain.
 */
function pgAppendScript(batch: ChainedFields[]): string {
  const entries = batch
    .map(
      (fields, index) =>
        `(${index + 1}, ${[...chainedValues(fields), canonicalFields(fields)]
          .map((value) => pgLiteral(value))
          .join(', ')})`,
    )
    .join(',\n    ');
  return `SELECT pg_advisory_xact_lock(${PG_AUDIT_LOCK_KEY});
WITH RECURSIVE entry (n, event_type, severity, user_id, partner_id, admin_user_id, ip_address, user_agent, details,
    created_at, canonical) AS (VALUES
    ${entries}),
  chain (n, prev_hash, hash) AS (
    SELECT 0, NULL::text, COALESCE((${CHAIN_HEAD}), ${pgLiteral(GENESIS_HASH)})
    UNION ALL
    SELECT entry.n, chain.hash, encode(sha256(convert_to(chain.hash || E'\\n' || entry.canonical, 'UTF8')), 'hex')
      FROM chain JOIN entry ON entry.n = chain.n + 1)
INSERT INTO audit_logs (${AUDIT_COLUMNS.join(', ')})
SELECT entry.event_type, entry.severity, entry.user_id, entry.partner_id, entry.admin_user_id, entry.ip_address,
    entry.user_agent, entry.details, entry.created_at::timestamptz, chain.prev_hash, chain.hash
  FROM entry JOIN chain ON chain.n = entry.n
  ORDER BY entry.n`;
}

/** Keys sorted so the stored JSON, and so the hash, does not depend on property order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)),
        )
      : inner,
  );
}

export function createAuditService({ db, clock, logger }: Pick<Deps, 'db' | 'clock' | 'logger'>) {
  async function record(entry: AuditEntry): Promise<void> {
    const createdAt = clock.now();
    const fields: ChainedFields = {
      event_type: entry.event,
      severity: entry.severity ?? 'info',
      user_id: entry.userId ?? null,
      partner_id: entry.partnerId ?? null,
      admin_user_id: entry.adminUserId ?? null,
      ip_address: entry.ip?.slice(0, 64) ?? null,
      user_agent: entry.userAgent?.slice(0, 512) ?? null,
      details: canonicalJson(entry.details ?? {}),
      created_at: createdAt.toISOString(),
    };
    return new Promise<void>((resolve, reject) => {
      queue.push({ fields, createdAt, resolve, reject });
      if (!flushing) void flush();
    });
  }

  /**
   * Group commit: entries recorded while a batch is being written wait and go in the next batch, so a burst of
   * events (a token issued per request under load) costs one transaction and one chain-head read per batch, not
   * per entry. Rows are still inserted one by one in arrival order, so ids follow the chain.
   */
  interface Pending {
    fields: ChainedFields;
    createdAt: Date;
    resolve: () => void;
    reject: (error: unknown) => void;
  }
  const queue: Pending[] = [];
  let flushing = false;
  const MAX_BATCH = 200;

  async function flush(): Promise<void> {
    flushing = true;
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0, MAX_BATCH);
        try {
          await writeBatch(batch);
          for (const entry of batch) entry.resolve();
        } catch (error) {
          if (batch.length === 1) {
            batch[0]?.reject(error);
            continue;
          }
          // One bad entry must not take the others down with it: write them one by one.
          for (const entry of batch) {
            await writeBatch([entry]).then(entry.resolve, entry.reject);
          }
        }
      }
    } finally {
      flushing = false;
    }
  }

  async function writeBatch(batch: Pending[]): Promise<void> {
    const rows = (prevHash: string) =>
      batch.map(({ fields, createdAt }) => {
        const hash = rowHash(prevHash, fields);
        const row = { ...fields, created_at: createdAt, prev_hash: prevHash, hash };
        prevHash = hash;
        return row;
      });
    if (db.atomic) {
      // SQLite: synchronous work in the hot-path group commit (db/sqlite-writes.ts), so a batch costs
      // microseconds and no transaction connection of its own. SQLite's write lock serialises writers.
      await db.atomic((sql) => {
        const [last] = sql.all<{ hash: string }>(CHAIN_HEAD);
        for (const row of rows(last?.hash ?? GENESIS_HASH)) sql.run(INSERT_AUDIT_ROW, row);
      });
      return;
    }
    if (db.script) {
      await db.script(pgAppendScript(batch.map((entry) => entry.fields)));
      return;
    }
    throw new Error('no way to append to the audit log on this database');
  }

  return {
    record,
    /**
     * Records an entry without failing the caller's request: the action has already happened, and losing the
     * request would not undo it. Failures are logged at error level for the operator.
     */
    async recordSafely(entry: AuditEntry): Promise<void> {
      try {
        await record(entry);
      } catch (error) {
        logger.error({ err: error, event: entry.event }, 'audit write failed');
      }
    },
  };
}
export type AuditService = ReturnType<typeof createAuditService>;

export interface ChainVerification {
  ok: boolean;
  checked: number;
  /** First row whose hash or link does not match, when `ok` is false. */
  brokenAt?: { id: number; reason: 'prev_hash_mismatch' | 'hash_mismatch' };
}

/** Walks the whole chain in id order, in pages, recomputing every hash. */
export async function verifyAuditChain(
  db: Deps['db'],
  pageSize = 1000,
  onPage?: (checked: number) => void,
): Promise<ChainVerification> {
  const { AuditLog } = db.models;
  let prevHash = GENESIS_HASH;
  let lastId = 0;
  let checked = 0;
  for (;;) {
    const rows = await AuditLog.findAll({
      where: { id: { [Op.gt]: lastId } },
      order: [['id', 'ASC']],
      limit: pageSize,
      raw: true,
    });
    if (rows.length === 0) return { ok: true, checked };
    onPage?.(checked);
    for (const row of rows) {
      const id = Number(row.id);
      if (row.prev_hash !== prevHash)
        return { ok: false, checked, brokenAt: { id, reason: 'prev_hash_mismatch' } };
      const fields: ChainedFields = {
        event_type: row.event_type,
        severity: row.severity,
        user_id: row.user_id,
        partner_id: row.partner_id,
        admin_user_id: row.admin_user_id,
        ip_address: row.ip_address,
        user_agent: row.user_agent,
        details: row.details,
        created_at: new Date(row.created_at).toISOString(),
      };
      if (rowHash(prevHash, fields) !== row.hash)
        return { ok: false, checked, brokenAt: { id, reason: 'hash_mismatch' } };
      prevHash = row.hash;
      lastId = id;
      checked += 1;
    }
  }
}

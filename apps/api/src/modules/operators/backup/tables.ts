import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';

/**
 * The database's own description of its tables (not the Sequelize models, so tables added by any migration are
 * backed up too), and one dialect-neutral JSON encoding of rows: the same data reads back identically from
 * SQLite and PostgreSQL, which is what makes the per-table checksums comparable across a restore.
 */
export type ColumnKind = 'date' | 'dateonly' | 'bool' | 'blob' | 'json' | 'int' | 'float' | 'text';

export interface TableInfo {
  name: string;
  columns: Array<{ name: string; kind: ColumnKind }>;
  /** Primary-key columns (ordering); every column when a table has none. */
  orderBy: string[];
  /** Tables this one references (foreign keys). */
  references: string[];
  /** PostgreSQL: the character columns (ordered byte-wise with COLLATE "C"; uuid columns take no collation). */
  textColumns?: Set<string>;
}

/** Bookkeeping that describes the schema rather than holding data: never copied row by row. */
export const SKIPPED_TABLES = new Set(['attestly_migrations', 'attestly_migration_lock', 'SequelizeMeta']);

function sqliteKind(declared: string): ColumnKind {
  const type = declared.toUpperCase();
  if (type.startsWith('DATETIME') || type.startsWith('TIMESTAMP')) return 'date';
  if (type === 'DATE' || type.startsWith('DATEONLY')) return 'dateonly';
  if (type.startsWith('TINYINT(1)') || type.startsWith('BOOLEAN')) return 'bool';
  if (type.startsWith('BLOB')) return 'blob';
  if (type.startsWith('JSON')) return 'json';
  if (/^(INTEGER|BIGINT|INT|SMALLINT|TINYINT|MEDIUMINT)/.test(type)) return 'int';
  if (/^(FLOAT|REAL|DOUBLE|DECIMAL|NUMERIC)/.test(type)) return 'float';
  return 'text';
}

function pgKind(dataType: string): ColumnKind {
  if (dataType.startsWith('timestamp')) return 'date';
  if (dataType === 'date') return 'dateonly';
  if (dataType === 'boolean') return 'bool';
  if (dataType === 'bytea') return 'blob';
  if (dataType === 'json' || dataType === 'jsonb' || dataType === 'ARRAY') return 'json';
  if (dataType === 'integer' || dataType === 'bigint' || dataType === 'smallint') return 'int';
  if (dataType === 'double precision' || dataType === 'real' || dataType === 'numeric') return 'float';
  return 'text';
}

/** Dependency order: a table comes after every table it references (ties and cycles broken by name). */
function dependencyOrder(tables: TableInfo[]): TableInfo[] {
  const byName = new Map(tables.map((table) => [table.name, table]));
  const ordered: TableInfo[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const visit = (table: TableInfo) => {
    if (placed.has(table.name) || visiting.has(table.name)) return;
    visiting.add(table.name);
    for (const reference of [...table.references].sort()) {
      const target = byName.get(reference);
      if (target && reference !== table.name) visit(target);
    }
    visiting.delete(table.name);
    placed.add(table.name);
    ordered.push(table);
  };
  [...tables].sort((a, b) => (a.name < b.name ? -1 : 1)).forEach(visit);
  return ordered;
}

export function sqliteTables(handle: BetterSqlite3.Database): TableInfo[] {
  const names = handle
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .all() as Array<{ name: string }>;
  const tables = names
    .filter(({ name }) => !SKIPPED_TABLES.has(name))
    .map(({ name }) => {
      const columns = handle.prepare(`PRAGMA table_info("${name}")`).all() as Array<{
        name: string;
        type: string;
        pk: number;
      }>;
      const keys = handle.prepare(`PRAGMA foreign_key_list("${name}")`).all() as Array<{ table: string }>;
      const pk = columns.filter((column) => column.pk > 0).sort((a, b) => a.pk - b.pk);
      return {
        name,
        columns: columns.map((column) => ({ name: column.name, kind: sqliteKind(column.type) })),
        orderBy: (pk.length ? pk : columns).map((column) => column.name),
        references: [...new Set(keys.map((key) => key.table))],
      };
    });
  return dependencyOrder(tables);
}

export async function pgTables(client: pg.ClientBase): Promise<TableInfo[]> {
  const { rows: columns } = await client.query<{
    table_name: string;
    column_name: string;
    data_type: string;
  }>(
    `SELECT table_name, column_name, data_type FROM information_schema.columns
      WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
  );
  const { rows: tableRows } = await client.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
  );
  const { rows: keys } = await client.query<{ table_name: string; column_name: string; position: number }>(
    `SELECT tc.table_name, kcu.column_name, kcu.ordinal_position AS position
       FROM information_schema.table_constraints tc
       JOIN information_schema.key_column_usage kcu
         ON kcu.constraint_name = tc.constraint_name AND kcu.table_schema = tc.table_schema
      WHERE tc.table_schema = current_schema() AND tc.constraint_type = 'PRIMARY KEY'`,
  );
  const { rows: foreign } = await client.query<{ table_name: string; referenced: string }>(
    `SELECT src.relname AS table_name, dst.relname AS referenced
       FROM pg_constraint c
       JOIN pg_class src ON src.oid = c.conrelid
       JOIN pg_class dst ON dst.oid = c.confrelid
       JOIN pg_namespace n ON n.oid = src.relnamespace
      WHERE c.contype = 'f' AND n.nspname = current_schema()`,
  );
  const tables = tableRows
    .map((row) => row.table_name)
    .filter((name) => !SKIPPED_TABLES.has(name))
    .map((name) => {
      const own = columns.filter((column) => column.table_name === name);
      const pk = keys.filter((key) => key.table_name === name).sort((a, b) => a.position - b.position);
      return {
        name,
        columns: own.map((column) => ({ name: column.column_name, kind: pgKind(column.data_type) })),
        orderBy: pk.length ? pk.map((key) => key.column_name) : own.map((column) => column.column_name),
        references: [
          ...new Set(foreign.filter((key) => key.table_name === name).map((key) => key.referenced)),
        ],
        textColumns: new Set(
          own
            .filter((column) => ['text', 'character varying', 'character'].includes(column.data_type))
            .map((column) => column.column_name),
        ),
      };
    });
  return dependencyOrder(tables);
}

/** Sorted keys at every level: PostgreSQL's jsonb reorders keys, SQLite keeps the written text. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** A stored value (from either driver) → its portable JSON form. */
export function encodeValue(kind: ColumnKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'date': {
      const date =
        value instanceof Date ? value : new Date(typeof value === 'number' ? value : String(value));
      return Number.isNaN(date.getTime()) ? String(value) : date.toISOString();
    }
    case 'dateonly':
      return value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);
    case 'bool':
      return value === true || value === 1 || value === '1' || value === 't' || value === 'true';
    case 'blob':
      return Buffer.isBuffer(value)
        ? value.toString('base64')
        : Buffer.from(value as Uint8Array).toString('base64');
    case 'json':
      return canonical(typeof value === 'string' ? safeJson(value) : value);
    case 'int':
    case 'float':
      return typeof value === 'number' ? value : Number(value);
    default:
      return typeof value === 'string' ? value : String(value);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** One row as a JSON line: columns in name order, values encoded. */
export function encodeRow(
  table: TableInfo,
  row: Record<string, unknown>,
  sortedColumns: TableInfo['columns'],
): string {
  const out: Record<string, unknown> = {};
  for (const column of sortedColumns) out[column.name] = encodeValue(column.kind, row[column.name]);
  void table;
  return JSON.stringify(out);
}

const sqliteDate = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 23)} +00:00`;

/** A portable value → what the target driver binds for that column. */
export function decodeValue(dialect: 'sqlite' | 'postgres', kind: ColumnKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'date':
      return dialect === 'sqlite' ? sqliteDate(new Date(String(value)).toISOString()) : String(value);
    case 'bool':
      return dialect === 'sqlite' ? (value ? 1 : 0) : !!value;
    case 'blob':
      return Buffer.from(String(value), 'base64');
    case 'json':
      return JSON.stringify(value);
    default:
      return value;
  }
}

import type { QueryInterface } from 'sequelize';
import type { Migration } from '../migration';

/**
 * Deep pages of the back-office lists (issue 9 "Performance": skip 100,000 of 300,000 verifications). The lists
 * read a page's ids first over a narrow index that matches their filter and their ORDER BY (created_at DESC,
 * id DESC), then load the page's rows by id (modules/backoffice/common.ts, deferred join). For that the index has to
 * hold the tie-breaking id too: each of these indexes is rebuilt under its own name with id appended, so the
 * page's keys — and its total_count — come from the index alone (an index-only scan on PostgreSQL, a covering
 * index on SQLite) and the indexes they replace are not kept beside them. Queries that used the old indexes use
 * the new ones (same leading columns), and the earlier migrations' down steps, which remove them by name, still do.
 *
 * audit_logs: on SQLite its id is the rowid, which every SQLite index already carries in order, so only PostgreSQL
 * gets the id appended there.
 */
interface IndexDefinition {
  table: string;
  name: string;
  columns: string[];
  where?: string;
  postgresOnly?: boolean;
}

const BEFORE: IndexDefinition[] = [
  { table: 'users', name: 'users_live_created', columns: ['created_at'], where: 'deleted_at IS NULL' },
  { table: 'users', name: 'users_country_created', columns: ['country', 'created_at'] },
  { table: 'verifications', name: 'verifications_created_at', columns: ['created_at'] },
  {
    table: 'verifications',
    name: 'verifications_review_created',
    columns: ['needs_manual_review', 'created_at'],
  },
  { table: 'verifications', name: 'verifications_status_created', columns: ['status', 'created_at'] },
  {
    table: 'verifications',
    name: 'verifications_type_created',
    columns: ['verification_type', 'created_at'],
  },
  {
    table: 'verifications',
    name: 'verifications_method_created',
    columns: ['verification_method', 'created_at'],
  },
  {
    table: 'verifications',
    name: 'verifications_type_method_created',
    columns: ['verification_type', 'verification_method', 'created_at'],
  },
  { table: 'verifications', name: 'verifications_user_created', columns: ['user_id', 'created_at'] },
  { table: 'audit_logs', name: 'audit_logs_created_at', columns: ['created_at'], postgresOnly: true },
  { table: 'audit_logs', name: 'audit_logs_user', columns: ['user_id', 'created_at'], postgresOnly: true },
  {
    table: 'audit_logs',
    name: 'audit_logs_partner',
    columns: ['partner_id', 'created_at'],
    postgresOnly: true,
  },
  {
    table: 'audit_logs',
    name: 'audit_logs_event',
    columns: ['event_type', 'created_at'],
    postgresOnly: true,
  },
  {
    table: 'audit_logs',
    name: 'audit_logs_admin',
    columns: ['admin_user_id', 'created_at'],
    postgresOnly: true,
  },
  {
    table: 'audit_logs',
    name: 'audit_logs_severity',
    columns: ['severity', 'created_at'],
    postgresOnly: true,
  },
];

/**
 * The users' indexes also carry deleted_at, which every users list filters on (deleted_at IS NULL): SQLite takes an
 * index as covering only when it holds every column the query names, a partial index's own condition included.
 */
const WITH_DELETED: Record<string, string[]> = {
  users_live_created: ['created_at', 'id', 'deleted_at'],
  users_country_created: ['country', 'deleted_at', 'created_at', 'id'],
};

const AFTER: IndexDefinition[] = BEFORE.map((index) => ({
  ...index,
  columns: WITH_DELETED[index.name] ?? [...index.columns, 'id'],
}));

async function rebuild(qi: QueryInterface, definitions: IndexDefinition[]): Promise<void> {
  const postgres = qi.sequelize.getDialect() === 'postgres';
  for (const index of definitions) {
    if (index.postgresOnly && !postgres) continue;
    await qi.sequelize.query(`DROP INDEX IF EXISTS ${index.name}`);
    await qi.sequelize.query(
      `CREATE INDEX ${index.name} ON ${index.table} (${index.columns.join(', ')})${index.where ? ` WHERE ${index.where}` : ''}`,
    );
  }
}

export const up: Migration = async ({ context: qi }) => {
  await rebuild(qi, AFTER);
};

export const down: Migration = async ({ context: qi }) => {
  await rebuild(qi, [...BEFORE].reverse());
};

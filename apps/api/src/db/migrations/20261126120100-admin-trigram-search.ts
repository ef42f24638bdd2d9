import type { Migration } from '../migration';

/**
 * Substring search of the back office (issue 9 "Performance"): `LOWER(column) LIKE '%term%'` on users (email,
 * full name) and partners (company, email, contact) is answered on PostgreSQL from pg_trgm GIN indexes instead of
 * a scan of every row. The indexes are on the same LOWER(column) expressions the searches use, so the planner
 * picks them up without any change of semantics (case-insensitive substring, as before).
 *
 * pg_trgm ships with PostgreSQL (contrib) but creating an extension needs the CREATE privilege on the database
 * (PostgreSQL 13+: trusted extension) or a superuser. Without it this migration still succeeds: it warns, creates
 * no trigram index, and the searches keep their plain scan (docs/benchmarks.md). An administrator can run
 * `CREATE EXTENSION pg_trgm` later and re-run this migration's statements by hand (or revert and re-apply it).
 *
 * SQLite: nothing here (see docs/benchmarks.md, back-office section).
 */
const INDEXES: Array<{ name: string; table: string; column: string }> = [
  { name: 'users_email_trgm', table: 'users', column: 'email' },
  { name: 'users_full_name_trgm', table: 'users', column: 'full_name' },
  { name: 'partners_company_name_trgm', table: 'partners', column: 'company_name' },
  { name: 'partners_email_trgm', table: 'partners', column: 'email' },
  { name: 'partners_contact_name_trgm', table: 'partners', column: 'contact_name' },
];

export const up: Migration = async ({ context: qi }) => {
  if (qi.sequelize.getDialect() !== 'postgres') return;
  const sequelize = qi.sequelize;
  // A failed statement does not end anything here (migrations run outside a transaction), so a refusal for lack of
  // privilege can be caught and the migration carries on.
  try {
    await sequelize.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  } catch (error) {
    process.emitWarning(
      `pg_trgm could not be created (${error instanceof Error ? error.message : String(error)}); the back office's ` +
        'substring search keeps scanning rows. Run CREATE EXTENSION pg_trgm as a superuser to index it.',
      { code: 'ATTESTLY_NO_PG_TRGM' },
    );
    return;
  }
  const [rows] = await sequelize.query(
    "SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'",
  );
  const schema = (rows as Array<{ schema: string }>)[0]?.schema;
  if (!schema) return;
  // The operator class is named with the extension's schema, in case that schema is not on the search path.
  const opclass = `"${schema.replace(/"/g, '""')}".gin_trgm_ops`;
  for (const index of INDEXES) {
    await sequelize.query(
      `CREATE INDEX IF NOT EXISTS ${index.name} ON ${index.table} USING gin (LOWER(${index.column}) ${opclass})`,
    );
  }
};

export const down: Migration = async ({ context: qi }) => {
  if (qi.sequelize.getDialect() !== 'postgres') return;
  // The extension stays: other objects (or an administrator) may use it.
  for (const index of [...INDEXES].reverse()) {
    await qi.sequelize.query(`DROP INDEX IF EXISTS ${index.name}`);
  }
};

import { DataTypes } from 'sequelize';
import type { Migration } from '../migration';

/**
 * Partner statistics roll-ups (spec 01 §3 "Partner stats", issue: figures from the database, not full scans).
 * Database triggers keep them in step with `verifications` whoever writes the row (API, review, CLI, restore), in the
 * writer's own transaction: one upsert per verification, per status change, or per partner attribution.
 *
 * - partner_stats_daily: per partner, site ('' for none) and UTC day: verifications, succeeded (approved),
 *   failed (rejected or failed), sandbox (counted apart, never in the others), and measured API response times.
 * - partner_stats_countries: per partner and country (the user's verified country when the row was attributed).
 *
 * Statistics outlive the verification rows: an account deletion removes its verifications, not the partner's counts.
 * Sites gain `sandbox`: loopback redirect URIs are allowed only there, and verifications made for them are sandbox.
 */
const SQLITE_DAILY_UPSERT = (row: 'NEW', sandboxRow: boolean) => `
  INSERT INTO partner_stats_daily
    (partner_id, site_id, day, verifications, succeeded, failed, sandbox, response_count, response_ms_sum)
  SELECT ${row}.partner_id, COALESCE(${row}.site_id, ''), substr(${row}.created_at, 1, 10),
    CASE WHEN ${row}.sandbox THEN 0 ELSE 1 END,
    CASE WHEN NOT ${row}.sandbox AND ${row}.status = 'approved' THEN 1 ELSE 0 END,
    CASE WHEN NOT ${row}.sandbox AND ${row}.status IN ('rejected', 'failed') THEN 1 ELSE 0 END,
    ${sandboxRow ? `CASE WHEN ${row}.sandbox THEN 1 ELSE 0 END` : '0'}, 0, 0
  WHERE ${row}.partner_id IS NOT NULL
  ON CONFLICT (partner_id, site_id, day) DO UPDATE SET
    verifications = partner_stats_daily.verifications + excluded.verifications,
    succeeded = partner_stats_daily.succeeded + excluded.succeeded,
    failed = partner_stats_daily.failed + excluded.failed,
    sandbox = partner_stats_daily.sandbox + excluded.sandbox;`;

const SQLITE_COUNTRY_UPSERT = `
  INSERT INTO partner_stats_countries (partner_id, country, verifications)
  SELECT NEW.partner_id, users.location_country, 1 FROM users
  WHERE users.id = NEW.user_id AND users.location_country IS NOT NULL AND NEW.partner_id IS NOT NULL
    AND NOT NEW.sandbox
  ON CONFLICT (partner_id, country) DO UPDATE SET
    verifications = partner_stats_countries.verifications + 1;`;

const SQLITE_TRIGGERS = [
  `CREATE TRIGGER verifications_partner_stats_insert AFTER INSERT ON verifications
   WHEN NEW.partner_id IS NOT NULL
   BEGIN ${SQLITE_DAILY_UPSERT('NEW', true)} ${SQLITE_COUNTRY_UPSERT} END`,
  `CREATE TRIGGER verifications_partner_stats_update AFTER UPDATE OF status, partner_id, site_id ON verifications
   WHEN NOT NEW.sandbox AND (OLD.status IS NOT NEW.status OR OLD.partner_id IS NOT NEW.partner_id
     OR OLD.site_id IS NOT NEW.site_id)
   BEGIN
     UPDATE partner_stats_daily SET
       verifications = verifications - 1,
       succeeded = succeeded - (CASE WHEN OLD.status = 'approved' THEN 1 ELSE 0 END),
       failed = failed - (CASE WHEN OLD.status IN ('rejected', 'failed') THEN 1 ELSE 0 END)
     WHERE OLD.partner_id IS NOT NULL AND partner_id = OLD.partner_id AND site_id = COALESCE(OLD.site_id, '')
       AND day = substr(OLD.created_at, 1, 10);
     ${SQLITE_DAILY_UPSERT('NEW', false)}
   END`,
  `CREATE TRIGGER verifications_partner_stats_attributed AFTER UPDATE OF partner_id ON verifications
   WHEN OLD.partner_id IS NULL AND NEW.partner_id IS NOT NULL
   BEGIN ${SQLITE_COUNTRY_UPSERT} END`,
];

const PG_FUNCTION = `
CREATE OR REPLACE FUNCTION verifications_partner_stats() RETURNS trigger AS $$
DECLARE
  new_day text;
  user_country text;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW.sandbox THEN RETURN NULL; END IF;
    IF OLD.partner_id IS NOT NULL THEN
      UPDATE partner_stats_daily SET
        verifications = verifications - 1,
        succeeded = succeeded - (CASE WHEN OLD.status = 'approved' THEN 1 ELSE 0 END),
        failed = failed - (CASE WHEN OLD.status IN ('rejected', 'failed') THEN 1 ELSE 0 END)
      WHERE partner_id = OLD.partner_id AND site_id = COALESCE(OLD.site_id, '')
        AND day = to_char(OLD.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD');
    END IF;
  END IF;
  IF NEW.partner_id IS NULL THEN RETURN NULL; END IF;
  new_day := to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD');
  INSERT INTO partner_stats_daily
    (partner_id, site_id, day, verifications, succeeded, failed, sandbox, response_count, response_ms_sum)
  VALUES (NEW.partner_id, COALESCE(NEW.site_id, ''), new_day,
    CASE WHEN NEW.sandbox THEN 0 ELSE 1 END,
    CASE WHEN NOT NEW.sandbox AND NEW.status = 'approved' THEN 1 ELSE 0 END,
    CASE WHEN NOT NEW.sandbox AND NEW.status IN ('rejected', 'failed') THEN 1 ELSE 0 END,
    CASE WHEN NEW.sandbox AND TG_OP = 'INSERT' THEN 1 ELSE 0 END, 0, 0)
  ON CONFLICT (partner_id, site_id, day) DO UPDATE SET
    verifications = partner_stats_daily.verifications + excluded.verifications,
    succeeded = partner_stats_daily.succeeded + excluded.succeeded,
    failed = partner_stats_daily.failed + excluded.failed,
    sandbox = partner_stats_daily.sandbox + excluded.sandbox;
  IF NOT NEW.sandbox AND (TG_OP = 'INSERT' OR OLD.partner_id IS NULL) THEN
    SELECT location_country INTO user_country FROM users WHERE id = NEW.user_id;
    IF user_country IS NOT NULL THEN
      INSERT INTO partner_stats_countries (partner_id, country, verifications)
      VALUES (NEW.partner_id, user_country, 1)
      ON CONFLICT (partner_id, country) DO UPDATE SET verifications = partner_stats_countries.verifications + 1;
    END IF;
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql`;

const PG_TRIGGERS = [
  PG_FUNCTION,
  `CREATE TRIGGER verifications_partner_stats_insert AFTER INSERT ON verifications
   FOR EACH ROW WHEN (NEW.partner_id IS NOT NULL) EXECUTE FUNCTION verifications_partner_stats()`,
  `CREATE TRIGGER verifications_partner_stats_update AFTER UPDATE OF status, partner_id, site_id ON verifications
   FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.partner_id IS DISTINCT FROM NEW.partner_id
     OR OLD.site_id IS DISTINCT FROM NEW.site_id)
   EXECUTE FUNCTION verifications_partner_stats()`,
];

export const up: Migration = async ({ context: qi }) => {
  await qi.createTable('partner_stats_daily', {
    partner_id: { type: DataTypes.STRING(64), allowNull: false, primaryKey: true },
    site_id: { type: DataTypes.STRING(64), allowNull: false, primaryKey: true },
    day: { type: DataTypes.STRING(10), allowNull: false, primaryKey: true },
    verifications: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    succeeded: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    failed: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    sandbox: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    response_count: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    response_ms_sum: { type: DataTypes.DOUBLE, allowNull: false, defaultValue: 0 },
  });
  await qi.createTable('partner_stats_countries', {
    partner_id: { type: DataTypes.STRING(64), allowNull: false, primaryKey: true },
    country: { type: DataTypes.STRING(8), allowNull: false, primaryKey: true },
    verifications: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
  });
  await qi.addColumn('sites', 'sandbox', { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false });
  const postgres = qi.sequelize.getDialect() === 'postgres';
  for (const statement of postgres ? PG_TRIGGERS : SQLITE_TRIGGERS) await qi.sequelize.query(statement);
};

export const down: Migration = async ({ context: qi }) => {
  const postgres = qi.sequelize.getDialect() === 'postgres';
  for (const name of [
    'verifications_partner_stats_insert',
    'verifications_partner_stats_update',
    'verifications_partner_stats_attributed',
  ]) {
    await qi.sequelize.query(`DROP TRIGGER IF EXISTS ${name}${postgres ? ' ON verifications' : ''}`);
  }
  if (postgres) await qi.sequelize.query('DROP FUNCTION IF EXISTS verifications_partner_stats()');
  await qi.removeColumn('sites', 'sandbox');
  await qi.dropTable('partner_stats_countries');
  await qi.dropTable('partner_stats_daily');
};

import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { QueryTypes } from 'sequelize';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../src/db/database';
import { migrateUp } from '../src/db/migrator';
import { verifyAuditChain } from '../src/modules/shared/audit/service';
import { createBackup } from '../src/modules/operators/backup/service';
import { restoreBackup } from '../src/modules/operators/backup/restore';
import { realisticInstallation } from './backup-fixture';
import { databaseDigest } from './database-digest';

/**
 * Backups restore a real installation (issue 21 item 1), in both directions between the two databases: the source is
 * built natively on each (its own triggers filled the statistics), backed up, restored into the other database, and
 * both are then read table by table (row counts and SHA-256 of every row) and must be equal. Needs PostgreSQL
 * whichever database the run uses (TEST_DATABASE_URL, or the local server .ci/run and the README use).
 */
const PG_ADMIN = process.env.TEST_DATABASE_URL?.startsWith('postgres')
  ? process.env.TEST_DATABASE_URL
  : 'postgres://postgres@127.0.0.1:5432/postgres';

type Dialect = 'sqlite' | 'postgres';

interface Place {
  /** The configuration a backup or restore is given. */
  config: { databaseUrl: string | null; dataDir: string };
  location: { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };
  /** What createTestApp is given to run the installation there. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

async function place(dialect: Dialect): Promise<Place> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'attestly-restore-'));
  if (dialect === 'sqlite') {
    const file = path.join(dataDir, 'attestly.sqlite');
    return {
      config: { databaseUrl: null, dataDir },
      location: { dialect, file },
      env: { DATABASE_URL: `sqlite:${file}` },
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `attestly_restore_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN);
  url.pathname = `/${name}`;
  return {
    config: { databaseUrl: url.toString(), dataDir },
    location: { dialect, url: url.toString() },
    env: { DATABASE_URL: url.toString() },
    async drop() {
      const client = new pg.Client({ connectionString: PG_ADMIN });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

/** What a real installation holds: each of these tables must have rows, or the test proves less than it claims. */
const POPULATED = [
  'users',
  'sessions',
  'partners',
  'sites',
  'api_keys',
  'oauth_authorizations',
  'oidc_payloads',
  'oidc_signing_keys',
  'verifications',
  'verification_media',
  'partner_stats_daily',
  'partner_stats_countries',
  'webhook_endpoints',
  'webhook_deliveries',
  'webhook_attempts',
  'admins',
  'admin_backup_codes',
  'audit_logs',
];

describe.each([
  ['sqlite', 'postgres'],
  ['postgres', 'sqlite'],
] as Array<[Dialect, Dialect]>)('backup of a real installation on %s, restored into %s', (from, to) => {
  it('loads every table exactly as archived: equal row counts and checksums, statistics intact, audit chain verifying', async () => {
    const source = await place(from);
    cleanups.push(() => source.drop());
    const installation = await realisticInstallation(source.env);
    const { t } = installation;
    cleanups.push(async () => {
      await installation.receiver.close();
      await t.close();
    });
    const work = mkdtempSync(path.join(tmpdir(), 'attestly-archives-'));
    cleanups.push(async () => rmSync(work, { recursive: true, force: true }));
    const archive = path.join(work, 'installation.backup');
    const manifest = await createBackup(
      { ...source.config, masterKey: t.config.masterKey },
      { out: archive, secret: { masterKey: t.config.masterKey } },
    );

    const before = await databaseDigest(source.location);
    for (const table of POPULATED) expect(before[table]?.rows, table).toBeGreaterThan(0);
    // Attributed verifications on several days: the roll-up has a row per partner, site and day.
    const days = await t.db.sequelize.query<{ day: string }>(
      'SELECT DISTINCT day FROM partner_stats_daily WHERE verifications > 0',
      { type: QueryTypes.SELECT },
    );
    expect(days.length).toBeGreaterThanOrEqual(3);
    expect(Object.keys(before).sort()).toEqual(manifest.files.map((file) => file.table).sort());

    const target = await place(to);
    cleanups.push(() => target.drop());
    const result = await restoreBackup(
      { ...target.config, masterKey: t.config.masterKey },
      { file: archive, secret: { masterKey: t.config.masterKey } },
    );
    expect(result.target.dialect).toBe(to);

    const after = await databaseDigest(target.location);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    for (const table of Object.keys(before)) expect(after[table], table).toEqual(before[table]);

    // The restored database works as the application's: its audit chain verifies to the last row, and the
    // statistics triggers are back in place (a new attributed verification counts once, on top of the restored row).
    const restored = await createDatabase(target.config);
    try {
      const chain = await verifyAuditChain(restored);
      expect(chain).toEqual({ ok: true, checked: before.audit_logs?.rows });
      const sameDay = await restored.models.Verification.findOne({
        where: { partner_id: installation.partnerIds[0], sandbox: false },
        order: [['created_at', 'ASC']],
      });
      await restored.models.Verification.create({
        user_id: sameDay!.user_id,
        verification_type: 'age',
        verification_method: 'credit_card',
        status: 'rejected',
        confidence_score: null,
        age_threshold: 18,
        message: 'after restore',
        document_analysis: null,
        subject_fingerprint: null,
        partner_id: sameDay!.partner_id,
        site_id: sameDay!.site_id,
        sandbox: false,
        reviewed_at: null,
        reviewed_by: null,
        expires_at: null,
        created_at: sameDay!.created_at,
        updated_at: sameDay!.created_at,
      });
      const day = new Date(sameDay!.created_at).toISOString().slice(0, 10);
      const [counted] = await restored.sequelize.query<{ verifications: number | string }>(
        'SELECT verifications FROM partner_stats_daily WHERE partner_id = :partner AND site_id = :site AND day = :day',
        {
          type: QueryTypes.SELECT,
          replacements: { partner: sameDay!.partner_id, site: sameDay!.site_id, day },
        },
      );
      const [original] = await t.db.sequelize.query<{ verifications: number | string }>(
        'SELECT verifications FROM partner_stats_daily WHERE partner_id = :partner AND site_id = :site AND day = :day',
        {
          type: QueryTypes.SELECT,
          replacements: { partner: sameDay!.partner_id, site: sameDay!.site_id, day },
        },
      );
      expect(Number(counted?.verifications)).toBe(Number(original?.verifications) + 1);
    } finally {
      await restored.close();
    }
  }, 300_000);
});

/** The triggers a database has, and whether each is enabled (SQLite's are always on while they exist). */
async function triggersOf(where: Place): Promise<string[]> {
  const db = await createDatabase(where.config);
  try {
    const rows =
      db.dialect === 'postgres'
        ? await db.sequelize.query<{ name: string; enabled: string }>(
            `SELECT c.relname || '.' || t.tgname AS name, t.tgenabled AS enabled FROM pg_trigger t
               JOIN pg_class c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal ORDER BY 1`,
            { type: QueryTypes.SELECT },
          )
        : await db.sequelize.query<{ name: string; enabled: string }>(
            "SELECT tbl_name || '.' || name AS name, 'O' AS enabled FROM sqlite_master WHERE type = 'trigger' ORDER BY 1",
            { type: QueryTypes.SELECT },
          );
    return rows.map((row) => `${row.name}:${row.enabled}`);
  } finally {
    await db.close();
  }
}

describe.each(['sqlite', 'postgres'] as Dialect[])(
  'restore --force over a populated %s database',
  (dialect) => {
    it('keeps its triggers and rows when the restore fails, and has every trigger enabled after it succeeds', async () => {
      const installation = await place(dialect);
      cleanups.push(() => installation.drop());
      const masterKey = randomBytes(32);
      const db = await createDatabase(installation.config);
      await migrateUp(db);
      const now = new Date();
      const partner = await db.models.Partner.create({
        email: 'p@example.com',
        password_hash: 'x',
        company_name: 'Acme',
        business_type: 'Gaming',
        created_at: now,
        updated_at: now,
      } as never);
      const user = await db.models.User.create({
        email: 'u@example.com',
        password_hash: 'x',
        full_name: 'U',
        created_at: now,
        updated_at: now,
      } as never);
      await db.models.Verification.create({
        user_id: user.id,
        verification_type: 'age',
        verification_method: 'credit_card',
        status: 'approved',
        confidence_score: null,
        age_threshold: 18,
        message: 'seeded',
        document_analysis: null,
        subject_fingerprint: null,
        partner_id: partner.id,
        site_id: null,
        sandbox: false,
        reviewed_at: null,
        reviewed_by: null,
        expires_at: null,
        created_at: now,
        updated_at: now,
      } as never);
      // Enough rows for an archive of several chunks, so that a restore is loading rows when it meets the cut end.
      await db.models.User.bulkCreate(
        Array.from({ length: 12_000 }, (_, i) => ({
          email: `bulk-${i}@example.com`,
          password_hash: 'x'.repeat(100),
          full_name: `Bulk User ${i}`,
          created_at: now,
          updated_at: now,
        })) as never[],
      );
      await db.close();
      const triggers = await triggersOf(installation);
      expect(triggers.length).toBeGreaterThan(0);
      expect(triggers.every((trigger) => trigger.endsWith(':O'))).toBe(true);
      const work = mkdtempSync(path.join(tmpdir(), 'attestly-archives-'));
      cleanups.push(async () => rmSync(work, { recursive: true, force: true }));
      const archive = path.join(work, 'populated.backup');
      await createBackup({ ...installation.config, masterKey }, { out: archive, secret: { masterKey } });
      const before = await databaseDigest(installation.location);

      // Cut inside the last table: the load has begun (triggers suspended) when the damage is found.
      const bytes = readFileSync(archive);
      const cut = path.join(work, 'cut.backup');
      writeFileSync(cut, bytes.subarray(0, bytes.length - 20));
      const loading: string[] = [];
      await expect(
        restoreBackup(
          { ...installation.config, masterKey },
          {
            file: cut,
            secret: { masterKey },
            force: true,
            onProgress: (progress) => {
              if (progress.phase === 'restore') loading.push(progress.table ?? '');
            },
          },
        ),
      ).rejects.toThrow(/truncated/);
      expect(loading).toContain('users');
      expect(await triggersOf(installation)).toEqual(triggers);
      expect(await databaseDigest(installation.location)).toEqual(before);

      await restoreBackup(
        { ...installation.config, masterKey },
        { file: archive, secret: { masterKey }, force: true },
      );
      expect(await triggersOf(installation)).toEqual(triggers);
      expect(await databaseDigest(installation.location)).toEqual(before);
    }, 300_000);
  },
);

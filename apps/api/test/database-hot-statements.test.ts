import { UniqueConstraintError } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../src/db/database';
import { migrateUp } from '../src/db/migrator';
import { createTestDatabase, onPostgres } from './helpers';

/**
 * `db.read` and `db.write`, the hot paths' plain statements, on the database under test: group-committed on SQLite,
 * named prepared statements on PostgreSQL. What callers rely on: changed-row counts that decide races, values stored
 * as the models store them, statements PostgreSQL cannot prepare still running, and a refused write reported the way
 * Sequelize reports it, with nothing stored.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  db = await createDatabase({ databaseUrl: database.url, dataDir: database.dataDir });
  await migrateUp(db);
}, 60_000);

afterAll(async () => {
  await db?.close();
  await database?.drop();
});

const INSERT = `INSERT INTO oidc_payloads (model, id, payload, expires_at)
  VALUES (:model, :id, :payload, :expiresAt)`;
const CONSUME = `UPDATE oidc_payloads SET consumed_at = :now
  WHERE model = :model AND id = :id AND consumed_at IS NULL`;

describe('db.write', () => {
  it('stores dates as the model reads them, and counts the rows it changed', async () => {
    const expiresAt = new Date('2031-02-03T04:05:06.789Z');
    expect(await db.write(INSERT, { model: 'Probe', id: 'dates', payload: '{}', expiresAt })).toBe(1);
    const stored = await db.models.OidcPayload.findOne({ where: { model: 'Probe', id: 'dates' } });
    expect(stored?.expires_at?.toISOString()).toBe(expiresAt.toISOString());

    const now = new Date('2030-01-01T00:00:00.000Z');
    expect(await db.write(CONSUME, { now, model: 'Probe', id: 'dates' })).toBe(1);
    expect(await db.write(CONSUME, { now, model: 'Probe', id: 'dates' })).toBe(0);
    expect(await db.write(CONSUME, { now, model: 'Probe', id: 'missing' })).toBe(0);
  });

  it('lets exactly one of many concurrent conditional updates win', async () => {
    await db.write(INSERT, { model: 'Probe', id: 'race', payload: '{}', expiresAt: null });
    const changed = await Promise.all(
      Array.from({ length: 12 }, () => db.write(CONSUME, { now: new Date(), model: 'Probe', id: 'race' })),
    );
    expect(changed.reduce((sum, each) => sum + each, 0)).toBe(1);
  });

  it('reports a refused write as the dialect does through Sequelize, and stores nothing of it', async () => {
    await db.write(INSERT, { model: 'Probe', id: 'twice', payload: '{"first":true}', expiresAt: null });
    const again = db.write(INSERT, {
      model: 'Probe',
      id: 'twice',
      payload: '{"second":true}',
      expiresAt: null,
    });
    if (onPostgres) await expect(again).rejects.toBeInstanceOf(UniqueConstraintError);
    else await expect(again).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
    const rows = await db.read<{ payload: string }>(
      'SELECT payload FROM oidc_payloads WHERE model = :model AND id = :id',
      { model: 'Probe', id: 'twice' },
    );
    expect(rows).toEqual([{ payload: '{"first":true}' }]);
  });

  it('runs a statement whose parameter type PostgreSQL cannot infer, every time', async () => {
    await db.write(INSERT, { model: 'Probe', id: 'untyped', payload: '{}', expiresAt: null });
    // `:flag IS NULL` gives the parameter no type: PostgreSQL refuses to prepare it, and Sequelize runs it instead.
    const sql = `UPDATE oidc_payloads SET payload = :payload WHERE model = 'Probe' AND id = 'untyped' AND :flag IS NULL`;
    for (const payload of ['{"n":1}', '{"n":2}'])
      expect(await db.write(sql, { payload, flag: null })).toBe(1);
    expect(await db.write(sql, { payload: '{"n":3}', flag: 'set' })).toBe(0);
    const [row] = await db.read<{ payload: string }>(
      'SELECT payload FROM oidc_payloads WHERE model = :model AND id = :id',
      { model: 'Probe', id: 'untyped' },
    );
    expect(row?.payload).toBe('{"n":2}');
  });
});

describe('db.read', () => {
  it('compares a date parameter with stored dates as the same instant', async () => {
    await db.write(INSERT, {
      model: 'Probe',
      id: 'read-a',
      payload: '{}',
      expiresAt: new Date(Date.now() + 60_000),
    });
    await db.write(INSERT, { model: 'Probe', id: 'read-b', payload: '{}', expiresAt: null });
    const live = await db.read<{ id: string }>(
      `SELECT id FROM oidc_payloads WHERE model = :model AND expires_at > :now ORDER BY id`,
      { model: 'Probe', now: new Date() },
    );
    expect(live.map((row) => row.id)).toEqual(['dates', 'read-a']);
  });
});

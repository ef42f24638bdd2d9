import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DataTypes, DatabaseError, UniqueConstraintError, type Model, type ModelStatic } from 'sequelize';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from './database';
import { toDate } from './rows';

let db: Database;
let dir: string;
type Thing = Model<{ id?: number; code: string; label: string; seen_at: Date | null; active: boolean }>;
let Things: ModelStatic<Thing>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'attestly-hot-'));
  db = await createDatabase({ databaseUrl: null, dataDir: dir });
  Things = db.sequelize.define<Thing>(
    'Thing',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      code: { type: DataTypes.STRING, allowNull: false, unique: true },
      label: { type: DataTypes.STRING, allowNull: false },
      seen_at: { type: DataTypes.DATE, allowNull: true },
      active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
    },
    { tableName: 'things', timestamps: false },
  );
  await Things.sync();
});
afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await Things.destroy({ where: {} });
});

const codes = async () =>
  (await db.read<{ code: string }>('SELECT code FROM things ORDER BY code', {})).map((r) => r.code);
const insert = (code: string, label = code) =>
  db.write('INSERT INTO things (code, label, active) VALUES (:code, :label, :active)', {
    code,
    label,
    active: true,
  });

describe('Sequelize on the better-sqlite3 driver', () => {
  it('maps constraint errors as node-sqlite3 did: unique with its fields, NOT NULL as a database error', async () => {
    await Things.create({ code: 'a', label: 'first', seen_at: null, active: true });
    const duplicate = await Things.create({ code: 'a', label: 'again', seen_at: null, active: true }).catch(
      (error: unknown) => error,
    );
    expect(duplicate).toBeInstanceOf(UniqueConstraintError);
    expect((duplicate as UniqueConstraintError).fields).toEqual(['code']);

    const missing = await db.sequelize
      .query("INSERT INTO things (code, label, active) VALUES ('b', NULL, 1)")
      .catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(DatabaseError);
    expect(missing).not.toBeInstanceOf(UniqueConstraintError);
    expect(String((missing as Error).message)).toMatch(/NOT NULL constraint failed: things\.label/);
  });

  it('returns generated ids, dates and booleans as the models declare them', async () => {
    const seen = new Date('2026-11-26T04:05:06.789Z');
    const [one, two] = await Things.bulkCreate([
      { code: 'x', label: 'x', seen_at: seen, active: false },
      { code: 'y', label: 'y', seen_at: null, active: true },
    ]);
    expect(typeof one?.get('id')).toBe('number');
    expect(two?.get('id')).toBe(Number(one?.get('id')) + 1);
    const found = await Things.findOne({ where: { code: 'x' } });
    expect(found?.get('seen_at')).toEqual(seen);
    expect(found?.get('active')).toBe(false);
  });

  it('keeps a failed transaction from leaking into the next one on a reused connection', async () => {
    await expect(
      db.sequelize.transaction(async (transaction) => {
        await Things.create({ code: 'rolled', label: 'r', seen_at: null, active: true }, { transaction });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await db.sequelize.transaction(async (transaction) => {
      await Things.create({ code: 'kept', label: 'k', seen_at: null, active: true }, { transaction });
    });
    expect(await codes()).toEqual(['kept']);
  });
});

describe('hot-path writes (db.write, db.atomic)', () => {
  it('stores dates exactly as Sequelize does, so either side reads the other’s rows', async () => {
    const at = new Date('2026-11-26T05:06:07.089Z');
    await db.write('INSERT INTO things (code, label, seen_at, active) VALUES (:code, :label, :at, :active)', {
      code: 'hot',
      label: 'hot',
      at,
      active: false,
    });
    const viaModel = await Things.findOne({ where: { code: 'hot' } });
    expect(viaModel?.get('seen_at')).toEqual(at);
    expect(viaModel?.get('active')).toBe(false);

    await Things.create({ code: 'orm', label: 'orm', seen_at: at, active: true });
    const [raw] = await db.read<{ seen_at: unknown }>('SELECT seen_at FROM things WHERE code = :code', {
      code: 'orm',
    });
    expect(toDate(raw?.seen_at)).toEqual(at);
    // A comparison written by Sequelize matches rows written by hand, and the other way round.
    expect(await Things.count({ where: { seen_at: at } })).toBe(2);
  });

  it('commits the writes of one turn together, and acknowledges none before the commit', async () => {
    const writes = Array.from({ length: 40 }, (_, index) => insert(`w${String(index).padStart(2, '0')}`));
    // Queued, not yet committed: nothing is visible within the same turn.
    expect(await codes()).toEqual([]);
    const changed = await Promise.all(writes);
    expect(changed).toEqual(Array.from({ length: 40 }, () => 1));
    expect(await codes()).toHaveLength(40);
  });

  it('fails only the statement that fails; the rest of the batch is stored', async () => {
    const results = await Promise.allSettled([insert('p'), insert('p', 'duplicate'), insert('q')]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE constraint failed/);
    expect(await codes()).toEqual(['p', 'q']);
  });

  it('undoes all of a failed multi-statement unit and nothing else', async () => {
    const atomic = db.atomic;
    if (!atomic) throw new Error('SQLite has atomic()');
    const results = await Promise.allSettled([
      insert('before'),
      atomic((sql) => {
        sql.run('INSERT INTO things (code, label, active) VALUES (:code, :label, 1)', {
          code: 'u1',
          label: 'u',
        });
        sql.run('INSERT INTO things (code, label, active) VALUES (:code, :label, 1)', {
          code: 'u1',
          label: 'u',
        });
      }),
      atomic((sql) => {
        sql.run('INSERT INTO things (code, label, active) VALUES (:code, :label, 1)', {
          code: 'v1',
          label: 'v',
        });
        return sql.all<{ n: number }>('SELECT COUNT(*) AS n FROM things')[0]?.n;
      }),
      insert('after'),
    ]);
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    // The unit saw its own write and the earlier one of the same batch.
    expect((results[2] as PromiseFulfilledResult<number>).value).toBe(2);
    expect(await codes()).toEqual(['after', 'before', 'v1']);
  });

  it('keeps nothing of a batch whose transaction is lost, and tells every caller', async () => {
    // A statement that ends the transaction stands in for the errors after which SQLite rolls it back itself.
    const results = await Promise.allSettled([insert('lost1'), db.write('ROLLBACK', {}), insert('lost2')]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/transaction ended/);
    expect(await codes()).toEqual([]);
    // The next batch works as usual.
    await insert('next');
    expect(await codes()).toEqual(['next']);
  });

  it('waits for an open transaction and refuses to run inside one', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = db.sequelize.transaction(async (t) => {
      await Things.create({ code: 'tx', label: 'tx', seen_at: null, active: true }, { transaction: t });
      await held;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    let stored = false;
    const write = insert('outside').then(() => (stored = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stored).toBe(false);
    release();
    await transaction;
    await write;
    expect(await codes()).toEqual(['outside', 'tx']);

    await expect(db.sequelize.transaction(async () => insert('inside'))).rejects.toThrow(
      /cannot run inside a transaction/,
    );
    expect(await codes()).toEqual(['outside', 'tx']);
  });
});

describe('closing', () => {
  it('commits queued writes before the database closes, then refuses new ones', async () => {
    const otherDir = mkdtempSync(path.join(dir, 'close-'));
    const other = await createDatabase({ databaseUrl: null, dataDir: otherDir });
    await other.sequelize.query('CREATE TABLE notes (body TEXT NOT NULL)');
    const pending = other.write('INSERT INTO notes (body) VALUES (:body)', { body: 'last words' });
    await other.close();
    await expect(pending).resolves.toBe(1);
    await expect(other.write('INSERT INTO notes (body) VALUES (:body)', { body: 'late' })).rejects.toThrow(
      /closed/,
    );
    await expect(other.read('SELECT body FROM notes', {})).rejects.toThrow(/closed/);
    const reopened = await createDatabase({ databaseUrl: null, dataDir: otherDir });
    expect(await reopened.read('SELECT body FROM notes', {})).toEqual([{ body: 'last words' }]);
    await reopened.close();
  });
});

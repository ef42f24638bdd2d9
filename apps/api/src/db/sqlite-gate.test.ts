import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from './database';

let db: Database;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'attestly-gate-'));
  db = await createDatabase({ databaseUrl: null, dataDir: dir });
  await db.sequelize.query('CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT NOT NULL)');
});
afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

const count = async () => {
  const [rows] = await db.sequelize.query('SELECT COUNT(*) AS n FROM items');
  return Number((rows as Array<{ n: number }>)[0]?.n);
};

describe('SQLite writer gate', () => {
  it('runs many concurrent transactions one at a time, without stalling', async () => {
    const before = await count();
    let inside = 0;
    let most = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        db.sequelize.transaction(async (transaction) => {
          inside += 1;
          most = Math.max(most, inside);
          await db.sequelize.query('INSERT INTO items (label) VALUES (:label)', {
            replacements: { label: `t${index}` },
            transaction,
          });
          await new Promise((resolve) => setTimeout(resolve, 1));
          inside -= 1;
        }),
      ),
    );
    expect(most).toBe(1);
    expect(await count()).toBe(before + 30);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('holds statements outside a transaction until the open one ends', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let committed = false;
    const writer = db.sequelize.transaction(async (transaction) => {
      await db.sequelize.query("INSERT INTO items (label) VALUES ('held')", { transaction });
      await held;
      committed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    let readDone = false;
    const reader = count().then((n) => {
      readDone = true;
      return n;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readDone).toBe(false);
    release();
    await writer;
    const seen = await reader;
    expect(committed).toBe(true);
    const [rows] = await db.sequelize.query("SELECT COUNT(*) AS n FROM items WHERE label = 'held'");
    expect(Number((rows as Array<{ n: number }>)[0]?.n)).toBe(1);
    expect(seen).toBe(await count());
  });

  it('lets a statement issued inside a transaction without the transaction through', async () => {
    const result = await db.sequelize.transaction(async () => count());
    expect(result).toBe(await count());
  });

  it('releases the gate when a transaction fails', async () => {
    await expect(
      db.sequelize.transaction(async (transaction) => {
        await db.sequelize.query("INSERT INTO items (label) VALUES ('rolled back')", { transaction });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const [rows] = await db.sequelize.query("SELECT COUNT(*) AS n FROM items WHERE label = 'rolled back'");
    expect(Number((rows as Array<{ n: number }>)[0]?.n)).toBe(0);
    await db.sequelize.transaction(async (transaction) => {
      await db.sequelize.query("INSERT INTO items (label) VALUES ('after')", { transaction });
    });
  });

  it('releases a statement slot when a query fails', async () => {
    await expect(db.sequelize.query('SELECT * FROM no_such_table')).rejects.toThrow();
    await db.sequelize.transaction(async (transaction) => {
      await db.sequelize.query("INSERT INTO items (label) VALUES ('still works')", { transaction });
    });
  });
});

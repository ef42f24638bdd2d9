import pg from 'pg';
import type { Logger } from 'pino';
import { describe, expect, it } from 'vitest';
import { createDatabase, warnWithoutAutovacuum } from '../src/db/database';
import { createTestDatabase, onPostgres, testDatabaseUrl } from './helpers';

/**
 * A PostgreSQL without autovacuum never analyses the tables, so the hot statements keep plans made on empty tables
 * (docs/benchmarks.md, "Plans made on empty tables"): the server says so at start (server.ts), where an operator
 * reads it. Opening the database says nothing (the CLI's commands open it too, and their output is for people).
 */
describe(`the database at start (${onPostgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('warns when PostgreSQL runs without autovacuum, and only then', async () => {
    const warnings: string[] = [];
    const logger = {
      warn: (message: string) => warnings.push(message),
      trace: () => {},
    } as unknown as Logger;
    const database = await createTestDatabase();
    const db = await createDatabase({ databaseUrl: database.url, dataDir: database.dataDir, logger });
    expect(warnings).toEqual([]);
    await warnWithoutAutovacuum(db, logger);
    await db.close();
    await database.drop();
    let autovacuum = true;
    if (onPostgres) {
      const client = new pg.Client({ connectionString: testDatabaseUrl as string });
      await client.connect();
      autovacuum = (await client.query<{ on: boolean }>("SELECT current_setting('autovacuum') = 'on' AS on"))
        .rows[0]!.on;
      await client.end();
    }
    expect(warnings).toEqual(
      autovacuum ? [] : [expect.stringMatching(/^PostgreSQL runs with autovacuum off/)],
    );
  });
});

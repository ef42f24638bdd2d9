import { copyFileSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../../apps/api/test/helpers';
import { createSite, fullFlow, registerPartner, verifiedUser } from '../../apps/api/test/oidc-helpers';
import { exited, startServerProcess } from '../../apps/api/test/server-process';
import { runCli } from './run-cli';

const pgBase = process.env.TEST_DATABASE_URL?.startsWith('postgres')
  ? process.env.TEST_DATABASE_URL
  : 'postgres://postgres@127.0.0.1:5432/postgres';

interface Manifest {
  rows: number;
  files: Array<{ table: string; sha256: string; rows: number }>;
}

async function freshPg(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `attestly_restore_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgBase });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(pgBase);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: pgBase });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** A data directory holding only the source's master key (what an operator copies to the new box). */
function dataDirWithKey(source: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'attestly-restore-'));
  copyFileSync(path.join(source, 'master.key'), path.join(dir, 'master.key'));
  return dir;
}

const tablesOf = (manifest: Manifest) => Object.fromEntries(manifest.files.map((file) => [file.table, file]));

describe('attestly backup: round trip SQLite/PostgreSQL and bad archives', () => {
  let t: TestApp;
  let work: string;
  let user: { email: string; password: string };
  let accessToken: string;
  let site: { client_id: string; client_secret?: string };
  const cleanups: Array<() => Promise<void> | void> = [];

  beforeAll(async () => {
    t = await createTestApp({ withOidc: true });
    work = mkdtempSync(path.join(tmpdir(), 'attestly-backups-'));
    cleanups.push(() => rmSync(work, { recursive: true, force: true }));
    // Users, partners, sites, grants and tokens, through the API.
    const partner = await registerPartner(t);
    const created = await createSite(t, partner.token, { client_type: 'confidential' });
    site = created;
    const adult = await verifiedUser(t, { proven_min_age: 18 });
    user = { email: adult.email, password: adult.password };
    const flow = await fullFlow(t, created, user);
    accessToken = flow.tokens.access_token;
    await signUp(t);
    // A verification waiting for review, with its media kept (encrypted) by the same service the routes use.
    await t.services.verifications.record(
      {
        userId: adult.user.id,
        type: 'age',
        method: 'document',
        status: 'pending',
        confidence: 0.5,
        ageThreshold: 18,
        needsReview: true,
        message: 'Sent for review',
        details: { reason: 'test' },
        media: [
          { bytes: randomBytes(4096), contentType: 'image/jpeg' },
          { bytes: randomBytes(2048), contentType: 'video/webm' },
        ],
      },
      { ip: '203.0.113.9', userAgent: 'test' },
    );
    await t.services.users.whenIdle();
  });

  afterAll(async () => {
    await t?.close();
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  const sourceEnv = () => ({
    ATTESTLY_DATA_DIR: t.config.dataDir,
    DATABASE_URL: t.config.databaseUrl ?? '',
  });

  it('backs up online, restores into PostgreSQL and back into SQLite with every row, sign-in and token intact', async () => {
    const first = path.join(work, 'first.backup');
    // The server keeps running: an online backup.
    const created = await runCli(['backup', 'create', '--out', first, '--json'], { env: sourceEnv() });
    expect(created.code, created.stderr).toBe(0);
    const firstManifest = JSON.parse(created.stdout) as Manifest;
    const tables = tablesOf(firstManifest);
    for (const name of [
      'users',
      'partners',
      'sites',
      'oauth_authorizations',
      'verifications',
      'verification_media',
      'audit_logs',
      'oidc_signing_keys',
      'oidc_payloads',
    ])
      expect(tables[name]?.rows, name).toBeGreaterThan(0);
    expect(tables.verification_media?.rows).toBe(2);

    const verified = await runCli(['backup', 'verify', first, '--json'], { env: sourceEnv() });
    expect(verified.code, verified.stderr).toBe(0);
    expect((JSON.parse(verified.stdout) as Manifest).files).toEqual(firstManifest.files);

    // Into a fresh PostgreSQL database on another "box" (same master key).
    const target = await freshPg();
    cleanups.push(() => target.drop());
    const pgDir = dataDirWithKey(t.config.dataDir);
    cleanups.push(() => rmSync(pgDir, { recursive: true, force: true }));
    const pgEnv = { ATTESTLY_DATA_DIR: pgDir, DATABASE_URL: target.url };
    const restored = await runCli(['backup', 'restore', first, '--json'], { env: pgEnv });
    expect(restored.code, restored.stderr).toBe(0);
    expect(JSON.parse(restored.stdout)).toMatchObject({ ok: true, target: { dialect: 'postgres' } });

    // Back up the PostgreSQL copy, and restore that into a fresh SQLite file.
    const second = path.join(work, 'second.backup');
    const again = await runCli(['backup', 'create', '--out', second, '--json'], { env: pgEnv });
    expect(again.code, again.stderr).toBe(0);
    const secondManifest = JSON.parse(again.stdout) as Manifest;
    const sqliteDir = dataDirWithKey(t.config.dataDir);
    cleanups.push(() => rmSync(sqliteDir, { recursive: true, force: true }));
    const sqliteEnv = { ATTESTLY_DATA_DIR: sqliteDir, DATABASE_URL: '' };
    const back = await runCli(['backup', 'restore', second], { env: sqliteEnv });
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toMatch(/counts and checksums match/);

    // Row for row: every table reads back with the same count and checksum from each database.
    const third = path.join(work, 'third.backup');
    const last = await runCli(['backup', 'create', '--out', third, '--json'], { env: sqliteEnv });
    const thirdManifest = JSON.parse(last.stdout) as Manifest;
    expect(secondManifest.files).toEqual(firstManifest.files);
    expect(thirdManifest.files).toEqual(firstManifest.files);

    const audit = await runCli(['audit', 'verify', '--json'], { env: sqliteEnv });
    expect(audit.code, audit.stderr).toBe(0);
    expect(JSON.parse(audit.stdout)).toMatchObject({ ok: true, checked: tables.audit_logs?.rows });

    // The restored SQLite installation serves: the user signs in, the partner's token still introspects.
    const server = await startServerProcess(
      {
        ...sqliteEnv,
        ATTESTLY_VISION: 'false',
        ATTESTLY_PUBLIC_URL: t.config.publicUrl,
      },
      180_000,
    );
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const login = await fetch(`${base}/api/v1/users/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(user),
      });
      expect(login.status).toBe(200);
      const introspection = await fetch(`${base}/oauth2/introspect`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Authorization: `Basic ${Buffer.from(`${site.client_id}:${site.client_secret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ token: accessToken }),
      });
      expect(introspection.status).toBe(200);
      expect(await introspection.json()).toMatchObject({ active: true, client_id: site.client_id });
    } finally {
      server.child.kill('SIGTERM');
      await exited(server.child);
    }
  });

  it('refuses damaged archives, wrong secrets, a newer schema and a populated target with one line and exit 1', async () => {
    const archive = path.join(work, 'good.backup');
    expect((await runCli(['backup', 'create', '--out', archive], { env: sourceEnv() })).code).toBe(0);
    const bytes = readFileSync(archive);

    const flipped = path.join(work, 'flipped.backup');
    const copy = Buffer.from(bytes);
    const middle = Math.floor(copy.length / 2);
    copy.writeUInt8(copy.readUInt8(middle) ^ 0x01, middle);
    writeFileSync(flipped, copy);
    const tampered = await runCli(['backup', 'verify', flipped], { env: sourceEnv() });
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toMatch(/^Error: the archive is damaged or was tampered with/);
    expect(tampered.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);

    const truncated = path.join(work, 'truncated.backup');
    writeFileSync(truncated, bytes);
    truncateSync(truncated, bytes.length - 100);
    const cut = await runCli(['backup', 'verify', truncated], { env: sourceEnv() });
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(/truncated/);

    const passphrase = path.join(work, 'pass.txt');
    writeFileSync(passphrase, 'correct horse battery staple\n');
    const wrong = path.join(work, 'wrong.txt');
    writeFileSync(wrong, 'incorrect horse battery staple\n');
    const sealed = path.join(work, 'passphrase.backup');
    expect(
      (
        await runCli(['backup', 'create', '--out', sealed, '--passphrase-file', passphrase], {
          env: sourceEnv(),
        })
      ).code,
    ).toBe(0);
    expect(
      (await runCli(['backup', 'verify', sealed, '--passphrase-file', passphrase], { env: sourceEnv() }))
        .code,
    ).toBe(0);
    const badPass = await runCli(['backup', 'verify', sealed, '--passphrase-file', wrong], {
      env: sourceEnv(),
    });
    expect(badPass.code).toBe(1);
    expect(badPass.stderr).toMatch(/^Error: wrong passphrase for this archive/);

    const populated = await runCli(['backup', 'restore', archive], { env: sourceEnv() });
    expect(populated.code).toBe(1);
    expect(populated.stderr).toMatch(/already holds data; .* --force/);

    // An archive whose database knew a migration this version does not: refused before anything is written.
    const futureDir = dataDirWithKey(t.config.dataDir);
    cleanups.push(() => rmSync(futureDir, { recursive: true, force: true }));
    const futureEnv = { ATTESTLY_DATA_DIR: futureDir, DATABASE_URL: '' };
    expect((await runCli(['migrate'], { env: futureEnv })).code).toBe(0);
    const handle = new BetterSqlite3(path.join(futureDir, 'attestly.sqlite'));
    handle.prepare('INSERT INTO attestly_migrations (name) VALUES (?)').run('29991231000000-from-the-future');
    handle.close();
    const future = path.join(work, 'future.backup');
    expect((await runCli(['backup', 'create', '--out', future], { env: futureEnv })).code).toBe(0);
    const emptyDir = dataDirWithKey(t.config.dataDir);
    cleanups.push(() => rmSync(emptyDir, { recursive: true, force: true }));
    const newer = await runCli(['backup', 'restore', future], {
      env: { ATTESTLY_DATA_DIR: emptyDir, DATABASE_URL: '' },
    });
    expect(newer.code).toBe(1);
    expect(newer.stderr).toMatch(/newer schema \(29991231000000-from-the-future\)/);

    // No master key on the target box at all.
    const bare = mkdtempSync(path.join(tmpdir(), 'attestly-nokey-'));
    cleanups.push(() => rmSync(bare, { recursive: true, force: true }));
    const noKey = await runCli(['backup', 'restore', archive], {
      env: { ATTESTLY_DATA_DIR: bare, DATABASE_URL: '' },
    });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/^Error: no master key/);
  });
});

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVisionEngine, type VisionEngine } from '@attestly/models';
import { LIVENESS_CHALLENGE } from '@attestly/contracts';
import { createApp } from '../src/app';
import { bootstrap } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import type { Deps } from '../src/core/deps';
import { createLogger } from '../src/logger';
import type { AppServices } from '../src/services';
import { ADULT_MALE_40S, bearer, fixture, haveFaceFixtures, stillVideo } from './verification-media';

/**
 * A liveness challenge answers one video across replicas (issue 23): two app instances, each with its own
 * connection pool and data directory but one PostgreSQL database and one master key, as two pods behind a load
 * balancer. Always on PostgreSQL (SQLite is one process by design): TEST_DATABASE_URL when it names a PostgreSQL
 * server, otherwise the local one the README uses. A throwaway database is created for the file and dropped after.
 */
const ADMIN_URL =
  process.env.TEST_DATABASE_URL && /^postgres(ql)?:/.test(process.env.TEST_DATABASE_URL)
    ? process.env.TEST_DATABASE_URL
    : 'postgres://postgres@127.0.0.1:5432/postgres';

interface Replica {
  deps: Deps;
  services: AppServices;
  server: Server;
  request: ReturnType<typeof supertest>;
  dataDir: string;
}

const databaseName = `attestly_challenge_${randomBytes(5).toString('hex')}`;
const masterKey = randomBytes(32).toString('hex');
let engine: VisionEngine;
let replicas: Replica[] = [];

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function startReplica(databaseUrl: string): Promise<Replica> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'attestly-challenge-replica-'));
  const config = loadConfig({
    ATTESTLY_DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    ATTESTLY_MASTER_KEY: masterKey,
    ATTESTLY_PUBLIC_URL: 'http://attestly.test',
    ATTESTLY_PASSWORD_COST: '12',
    ATTESTLY_TRUST_PROXY: 'true',
    ATTESTLY_WEB_DIR: path.join(dataDir, 'no-web'),
    LOG_LEVEL: 'error',
  });
  const deps = await bootstrap(config, createLogger(config));
  const { app, services } = createApp(deps, { vision: engine });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { deps, services, server, request: supertest(url), dataDir };
}

beforeAll(async () => {
  await admin(`CREATE DATABASE ${databaseName}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${databaseName}`;
  engine = createVisionEngine({ workers: 1 });
  // One after the other: the first migrates the empty database, the second finds it current.
  replicas.push(await startReplica(url.toString()));
  replicas.push(await startReplica(url.toString()));
  await engine.ready;
}, 180_000);

afterAll(async () => {
  for (const replica of replicas) {
    await new Promise<void>((resolve) => replica.server.close(() => resolve()));
    await replica.deps.db.close();
    rmSync(replica.dataDir, { recursive: true, force: true });
  }
  replicas = [];
  await engine?.close();
  await admin(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
});

/** A user registered and signed in on replica A; the token works on both (sessions live in the database). */
async function user(from: string) {
  const [a] = replicas as [Replica, Replica];
  const email = `racer-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'correct horse battery';
  await a.request
    .post('/api/v1/users/register')
    .set('X-Forwarded-For', from)
    .send({ full_name: 'Race Tester', email, password })
    .expect(201);
  const login = await a.request
    .post('/api/v1/users/login')
    .set('X-Forwarded-For', from)
    .send({ email, password })
    .expect(200);
  return { token: login.body.access_token as string, id: login.body.user.id as string };
}

describe('liveness challenges on two replicas of one PostgreSQL database', () => {
  it('spends a challenge exactly once when consumes race on both replicas', async () => {
    const [a, b] = replicas as [Replica, Replica];
    const { id } = await user('203.0.113.10');
    const challenge = await a.services.verifications.challenges.issue(id);
    const attempts = Array.from({ length: 12 }, (_, i) =>
      (i % 2 === 0 ? a : b).services.verifications.challenges.consume(id, challenge.id).then(
        () => 'spent' as const,
        (error: { code?: string }) => error.code ?? 'error',
      ),
    );
    const outcomes = await Promise.all(attempts);
    expect(outcomes.filter((o) => o === 'spent')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'verification.challenge_used')).toHaveLength(11);
  });

  it.skipIf(!haveFaceFixtures)(
    'answers one of several uploads racing with the same challenge on both replicas, and refuses the rest as used',
    async () => {
      const [a, b] = replicas as [Replica, Replica];
      const { token } = await user('203.0.113.11');
      // Issued by replica B, presented to both.
      const issued = await b.request
        .post('/api/v1/age-verification/challenges')
        .set(bearer(token))
        .expect(201);
      const clip = stillVideo(fixture(ADULT_MALE_40S), 2, 8);
      const upload = (replica: Replica) =>
        replica.request
          .post('/api/v1/age-verification/verify-age')
          .set(bearer(token))
          .field('media_type', 'video')
          .field('challenge_id', issued.body.id as string)
          .attach('media_file', clip, 'verification.webm');
      const answers = await Promise.all([upload(a), upload(b), upload(a), upload(b)]);
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([200, 422, 422, 422]);
      for (const refused of answers.filter((answer) => answer.status === 422)) {
        expect(refused.body).toMatchObject({
          code: 'verification.challenge_used',
          detail: LIVENESS_CHALLENGE.usedMessage,
        });
      }
      // One verification was recorded, whichever replica won.
      expect(await a.deps.db.models.Verification.count()).toBe(1);
    },
    120_000,
  );
});

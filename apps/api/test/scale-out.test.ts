import { randomBytes } from 'node:crypto';
import { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { FORGOT_PASSWORD_BY_EMAIL } from '../src/modules/users/accounts/service';
import { Browser, authorizeInBrowser, createSite, pkce, registerPartner, relyingParty } from './oidc-helpers';
import { randomClientIp } from './helpers';
import { freePort } from './http';
import {
  admin,
  createDatabase,
  eventuallyPurged,
  pinned,
  REPLICAS,
  replicaEnv,
  type Replica,
  type Served,
  startProxy,
  startEventReceiver,
  startReplicas,
  stopReplicas,
} from './scale-out-cluster';

/**
 * The scale-out design (DESIGN.md §2, docs/operator-guide.md "Scaling out") on PostgreSQL: three real server
 * processes on one database, behind a small round-robin reverse proxy that is their one public URL (the OIDC
 * issuer). Nothing that replicas share may live in a process, so:
 *  - three replicas started at the same moment on an empty database migrate it once (advisory lock);
 *  - an OpenID Connect flow whose consecutive requests land on different replicas completes;
 *  - rate limits and sign-in lockouts count in the database, so they hold whichever replica answers;
 *  - a change to a partner site reaches every replica within the documented 2 seconds (client cache);
 *  - the media purge job, which every replica runs at start and every 15 minutes, purges each file once.
 *
 * Always on PostgreSQL (SQLite is one process by design): TEST_DATABASE_URL when it names a PostgreSQL server,
 * otherwise the server .ci/run and the README use, postgres://postgres@127.0.0.1:5432/postgres. A throwaway
 * database is created for the file and dropped after it.
 */

/** The client cache's documented bound (README "OpenID Connect for partners"). */
const SITE_CHANGE_BOUND_MS = 2000;

let databaseName: string;
let databaseUrl: string;
let proxy: Server;
let publicUrl: string;
let env: Record<string, string>;
let replicas: Replica[] = [];
/** The port the webhook test's receiver listens on: the allowlist names it, so it is chosen before the replicas start. */
let receiverPort = 0;
const served: Served = [];

beforeAll(async () => {
  ({ name: databaseName, url: databaseUrl } = await createDatabase());
  ({ proxy, url: publicUrl } = await startProxy(() => replicas, served));
  receiverPort = await freePort();
  env = replicaEnv(databaseUrl, publicUrl, receiverPort);
  replicas = await startReplicas(env);
}, 180_000);

afterAll(async () => {
  await stopReplicas(replicas);
  proxy?.closeAllConnections();
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
  if (databaseName) {
    await admin((db) => db.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`));
  }
}, 60_000);

describe('three replicas on one PostgreSQL database', () => {
  it('migrate an empty database once when all three start at the same moment', async () => {
    expect(new Set(replicas.map((replica) => replica.child.pid)).size).toBe(REPLICAS);
    const outputs = replicas.map((replica) => replica.output());
    // Exactly one replica ran the migrations; the others waited on the lock and found the schema current.
    expect(outputs.filter((output) => output.includes('database migrated'))).toHaveLength(1);
    const applied = await admin(
      async (db) => (await db.query<{ name: string }>('SELECT name FROM attestly_migrations')).rows,
      databaseUrl,
    );
    const runs = outputs.join('\n').match(/"event":"migrating"/g) ?? [];
    expect(applied.length).toBeGreaterThan(0);
    expect(runs).toHaveLength(applied.length);
    for (const replica of replicas) {
      const ready = await pinned(replica, `${publicUrl}/readyz`);
      expect(ready.status, replica.name).toBe(200);
      expect(await ready.json()).toMatchObject({ checks: { migrations: { ok: true, pending: [] } } });
    }
  });

  it('complete an OpenID Connect flow whose steps land on different replicas', async () => {
    const request = supertest(publicUrl);
    const partner = await registerPartner({ request });
    const site = await createSite({ request }, partner.token);
    const user = {
      email: `scale-${randomBytes(4).toString('hex')}@example.com`,
      password: 'correct horse battery',
    };
    await request
      .post('/api/v1/users/register')
      .set('X-Forwarded-For', randomClientIp())
      .send({ full_name: 'Scale Out', ...user })
      .expect(201);

    const before = served.length;
    const t = { baseUrl: publicUrl };
    const config = await relyingParty(t, site);
    const { verifier, challenge } = pkce();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: site.redirect_uris[0] as string,
      scope: 'openid offline_access basic_info AGE_18',
      prompt: 'consent',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state,
    });
    const { callback, steps } = await authorizeInBrowser(t, new Browser(), url.href, { login: user });
    expect(steps).toEqual(['login', 'consent']);
    const tokens = await client.authorizationCodeGrant(config, new URL(callback), {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const sub = tokens.claims()?.sub as string;
    const info = await client.fetchUserInfo(config, tokens.access_token, sub);
    // Claims read on whichever replica answered: the subject is the one the code exchange returned.
    expect(info.sub).toBe(sub);
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token as string);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    const active = await client.tokenIntrospection(config, refreshed.access_token);
    expect(active).toMatchObject({ active: true, client_id: site.client_id, sub });
    // The rotated refresh token is dead on every replica.
    expect((await client.tokenIntrospection(config, tokens.refresh_token as string)).active).toBe(false);

    const flow = served.slice(before);
    const where = (pathname: string) => flow.filter((entry) => entry.path === pathname).map((e) => e.replica);
    // Every replica served part of the one flow, and the steps that depend on each other's state crossed over:
    // the authorization started on one replica, the interaction API and the code exchange ran on others.
    expect(new Set(flow.map((entry) => entry.replica)).size).toBe(REPLICAS);
    const [authorizedOn] = where('/oauth2/authorize');
    const interactions = flow.filter((entry) => entry.path.startsWith('/api/v1/oauth/interactions/'));
    expect(interactions.some((entry) => entry.replica !== authorizedOn)).toBe(true);
    const tokenCalls = where('/oauth2/token');
    expect(tokenCalls).toHaveLength(2);
    expect(tokenCalls[0]).not.toBe(tokenCalls[1]);
    expect(flow.every((entry) => entry.status < 500)).toBe(true);
  }, 120_000);

  it('hold a rate limit across replicas: concurrent requests on all three get exactly the budget', async () => {
    const email = `limited-${randomBytes(4).toString('hex')}@example.com`;
    const answers = await Promise.all(
      Array.from({ length: REPLICAS * FORGOT_PASSWORD_BY_EMAIL.limit }, () =>
        fetch(`${publicUrl}/api/v1/users/forgot-password`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': randomClientIp() },
          body: JSON.stringify({ email }),
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 429)).toHaveLength(
      (REPLICAS - 1) * FORGOT_PASSWORD_BY_EMAIL.limit,
    );
    expect(statuses.filter((status) => status >= 200 && status < 300)).toHaveLength(
      FORGOT_PASSWORD_BY_EMAIL.limit,
    );
    // Every replica refuses the next one: none of them kept a private count. (Which replicas refused inside the
    // burst depends on which answered first, so it is asked of each replica in turn rather than read from the burst.)
    for (const replica of replicas) {
      const next = await pinned(replica, `${publicUrl}/api/v1/users/forgot-password`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': randomClientIp() },
        body: JSON.stringify({ email }),
      });
      expect(next.status).toBe(429);
    }
  });

  it('hold a sign-in lockout across replicas', async () => {
    const email = `locked-${randomBytes(4).toString('hex')}@example.com`;
    const password = 'correct horse battery';
    await supertest(publicUrl)
      .post('/api/v1/users/register')
      .set('X-Forwarded-For', randomClientIp())
      .send({ full_name: 'Locked Out', email, password })
      .expect(201);
    const attacker = randomClientIp();
    const login = (replica: Replica, secret: string) =>
      pinned(replica, `${publicUrl}/api/v1/users/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': attacker },
        body: JSON.stringify({ email, password: secret }),
      });
    // Five wrong passwords from one address, spread over the replicas (A B C A B): no replica saw more than two.
    const wrong: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      wrong.push((await login(replicas[attempt % REPLICAS] as Replica, 'wrong password')).status);
    }
    expect(wrong.slice(0, 4)).toEqual([401, 401, 401, 401]);
    // Now even the right password from that address is refused, on every replica.
    for (const replica of replicas) {
      const answer = await login(replica, password);
      expect(answer.status, replica.name).toBe(429);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('see a change to a site on every replica within 2 seconds', async () => {
    const request = supertest(publicUrl);
    const partner = await registerPartner({ request });
    const site = await createSite({ request }, partner.token, {
      site_name: 'Soon paused',
      redirect_uris: ['https://paused.example.com/cb'],
    });
    const authorize = (replica: Replica) => {
      const url = new URL(`${publicUrl}/oauth2/authorize`);
      const { challenge } = pkce();
      for (const [key, value] of Object.entries({
        client_id: site.client_id,
        redirect_uri: site.redirect_uris[0] as string,
        response_type: 'code',
        scope: 'openid basic_info',
        state: 'state-1',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }))
        url.searchParams.set(key, value);
      return pinned(replica, url.href, { redirect: 'manual' });
    };
    // Served (and so cached) by every replica while active.
    for (const replica of replicas) expect((await authorize(replica)).status, replica.name).toBe(303);

    const changedAt = Date.now();
    await request
      .put(`/api/v1/partners/sites/${site.id}`)
      .set('Authorization', `Bearer ${partner.token}`)
      .send({ is_active: false })
      .expect(200);
    const acknowledgedAt = Date.now();
    const seenAfter = await Promise.all(
      replicas.map(async (replica) => {
        for (;;) {
          const answer = await authorize(replica);
          if (answer.status === 400) {
            expect(await answer.json()).toMatchObject({ error: 'invalid_client' });
            return Date.now() - acknowledgedAt;
          }
          expect(answer.status).toBe(303);
          if (Date.now() - changedAt > 3 * SITE_CHANGE_BOUND_MS) return Infinity;
          await sleep(50);
        }
      }),
    );
    // Polling every 50 ms adds up to one interval (and a request) to what each replica really took.
    for (const [index, after] of seenAfter.entries()) {
      expect(after, `replica ${replicas[index]?.name}`).toBeLessThanOrEqual(SITE_CHANGE_BOUND_MS + 250);
    }
  });

  it('deliver each webhook event once although every replica runs the delivery worker', async () => {
    const { receiver, received } = await startEventReceiver(receiverPort);
    try {
      const request = supertest(publicUrl);
      const partner = await registerPartner({ request });
      const site = await createSite({ request }, partner.token);
      await request
        .post('/api/v1/partners/webhooks')
        .set('Authorization', `Bearer ${partner.token}`)
        .send({
          url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
          events: ['token.revoked'],
        })
        .expect(201);
      const config = await relyingParty({ baseUrl: publicUrl }, site);
      // Users who connect to the site and then revoke it: one token.revoked event each, queued in the outbox.
      const users = 4;
      for (let index = 0; index < users; index += 1) {
        const user = {
          email: `hooked-${randomBytes(4).toString('hex')}@example.com`,
          password: 'correct horse battery',
        };
        const ip = randomClientIp();
        await request
          .post('/api/v1/users/register')
          .set('X-Forwarded-For', ip)
          .send({ full_name: 'Hooked User', ...user })
          .expect(201);
        const { verifier, challenge } = pkce();
        const url = client.buildAuthorizationUrl(config, {
          redirect_uri: site.redirect_uris[0] as string,
          scope: 'openid basic_info',
          code_challenge: challenge,
          code_challenge_method: 'S256',
          state: 'hooked',
        });
        const { callback } = await authorizeInBrowser({ baseUrl: publicUrl }, new Browser(), url.href, {
          login: user,
        });
        await client.authorizationCodeGrant(config, new URL(callback), {
          pkceCodeVerifier: verifier,
          expectedState: 'hooked',
        });
        const session = await request
          .post('/api/v1/users/login')
          .set('X-Forwarded-For', ip)
          .send(user)
          .expect(200);
        const bearer = `Bearer ${session.body.access_token as string}`;
        const tokens = await request.get('/api/v1/users/tokens').set('Authorization', bearer).expect(200);
        const grant = (tokens.body.tokens as Array<{ id: string }>)[0];
        await request.delete(`/api/v1/users/tokens/${grant?.id}`).set('Authorization', bearer).expect(204);
      }
      // Every replica polls the outbox every second; wait for the deliveries, then for several more rounds.
      const deadline = Date.now() + 30_000;
      while (received.length < users && Date.now() < deadline) await sleep(100);
      await sleep(3000);
      expect(new Set(received).size).toBe(users);
      expect(received).toHaveLength(users);
    } finally {
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  }, 120_000);

  it('purge each verification file once although every replica runs the purge job', async () => {
    const owner = {
      email: `media-${randomBytes(4).toString('hex')}@example.com`,
      password: 'correct horse battery',
    };
    await supertest(publicUrl)
      .post('/api/v1/users/register')
      .set('X-Forwarded-For', randomClientIp())
      .send({ full_name: 'Media Owner', ...owner })
      .expect(201);
    // Cases waiting for review with their media past the retention limit, written while no replica runs.
    await stopReplicas(replicas);
    replicas = [];
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const cases = 6;
    const verificationIds: string[] = [];
    try {
      const [user] = (await db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [owner.email]))
        .rows;
      expect(user).toBeDefined();
      for (let index = 0; index < cases; index += 1) {
        const { rows } = await db.query<{ id: string }>(
          `INSERT INTO verifications (id, user_id, verification_type, verification_method, status, confidence_score,
             age_threshold, needs_manual_review, message, result_details, review_notes, created_at, updated_at)
           VALUES (gen_random_uuid(), $1, 'age', 'document', 'pending', 0.4, 18, true, 'A reviewer will check it.',
             '{}', '[]', now(), now())
           RETURNING id`,
          [user?.id],
        );
        const id = rows[0]?.id as string;
        verificationIds.push(id);
        await db.query(
          `INSERT INTO verification_media (id, verification_id, content_type, byte_length, iv, auth_tag, ciphertext,
             purge_after, created_at)
           VALUES (gen_random_uuid(), $1, 'image/png', 4, $2, $3, $4, now() - interval '1 minute', now())`,
          [id, randomBytes(12), randomBytes(16), randomBytes(4)],
        );
      }
    } finally {
      await db.end();
    }

    // All three start together, and each runs the purge at start.
    replicas = await startReplicas(env);
    const purged = await eventuallyPurged(databaseUrl, verificationIds);
    expect(purged).toBe(0);
    // Give every replica's start-up purge time to finish (they log each purge they did).
    await sleep(1500);
    const outputs = replicas.map((replica) => replica.output()).join('\n');
    const counted = [...outputs.matchAll(/"expired":(\d+)[^\n]*verification media purged/g)].map((match) =>
      Number(match[1]),
    );
    // Deleted once in all: the replicas' counts of files they deleted add up to the files there were.
    expect(counted.reduce((sum, count) => sum + count, 0)).toBe(cases);
    const notes = await admin(
      async (connection) =>
        (
          await connection.query<{ id: string; review_notes: Array<{ note: string }> }>(
            'SELECT id, review_notes FROM verifications WHERE id = ANY($1::uuid[])',
            [verificationIds],
          )
        ).rows,
      databaseUrl,
    );
    // And each case says once that its media were deleted unreviewed, not once per replica.
    for (const row of notes) {
      const purgeNotes = row.review_notes.filter((note) => note.note.startsWith('Media deleted unreviewed'));
      expect(purgeNotes, row.id).toHaveLength(1);
    }
  }, 180_000);
});

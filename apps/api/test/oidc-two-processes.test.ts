import { randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { createTestDatabase } from './helpers';
import { startServerProcess, type ServerProcess, stopProcess } from './server-process';
import { Browser, authorizeInBrowser, createSite, pkce, registerPartner, relyingParty } from './oidc-helpers';

/**
 * DESIGN.md §2 (statelessness): two real API processes on one database behave as one provider. Unlike
 * oidc-statelessness.test.ts (two app instances in one process), nothing here can share memory by accident.
 *
 * The issuer problem: the issuer is `ATTESTLY_PUBLIC_URL/oauth2`, it must be identical on both processes (it is in
 * every token, in discovery and in the `iss` of the authorization response), yet each process listens on its own
 * random port. A real deployment puts a load balancer in front of its replicas, so this test does the same: a tiny
 * reverse proxy on a random port is the one public URL of both processes, and forwards each request to the
 * replica the test currently points it at (`route`). The test records which replica answered every request, so it
 * can prove that each step ran where it says. Rewriting hosts in the client instead would also work, but would
 * make the Host header disagree with the issuer, which a proxy-less production never sees.
 *
 * The database: a SQLite file in the shared data directory (WAL with a busy timeout lets two processes use it)
 * or, with TEST_DATABASE_URL, the same throwaway PostgreSQL database. Both processes get the same master key, so
 * they derive the same cookie keys and decrypt the same signing keys.
 */

type Replica = 'A' | 'B';
type Started = ServerProcess;
const startServer = startServerProcess;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let proxy: Server;
let publicUrl: string;
const replicas = new Map<Replica, Started>();
let route: Replica = 'A';
/** Every request the proxy forwarded: which replica answered which path. */
const served: Array<{ replica: Replica; path: string; status: number }> = [];

beforeAll(async () => {
  database = await createTestDatabase();
  proxy = createServer((incoming, outgoing) => {
    const replica = route;
    const target = replicas.get(replica);
    if (!target) {
      outgoing.writeHead(502).end();
      return;
    }
    const forwarded = httpRequest(
      {
        host: '127.0.0.1',
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (response) => {
        served.push({
          replica,
          path: String(incoming.url).split('?')[0] as string,
          status: response.statusCode ?? 0,
        });
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  publicUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

  const env = {
    ATTESTLY_DATA_DIR: database.dataDir,
    DATABASE_URL: database.url ?? '',
    ATTESTLY_PUBLIC_URL: publicUrl,
    ATTESTLY_MASTER_KEY: randomBytes(32).toString('hex'),
    ATTESTLY_PASSWORD_COST: '12',
    ATTESTLY_VISION: 'false',
    ATTESTLY_WEB_DIR: path.join(database.dataDir, 'no-web'),
    // No mail capture here: partners start active instead of waiting for their e-mail link.
    ATTESTLY_PARTNER_INITIAL_STATUS: 'active',
  };
  // One after the other: the first migrates the fresh database and creates the signing keys, the second finds both.
  replicas.set('A', await startServer(env));
  replicas.set('B', await startServer(env));
}, 120_000);

afterAll(async () => {
  await Promise.all([...replicas.values()].map((replica) => stopProcess(replica.child)));
  proxy?.closeAllConnections();
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
  await database?.drop();
});

describe('two API processes on one database', () => {
  it('runs as two separate processes with their own ports and process ids', () => {
    const [a, b] = [replicas.get('A'), replicas.get('B')];
    expect(a?.child.pid).toBeTypeOf('number');
    expect(b?.child.pid).toBeTypeOf('number');
    expect(a?.child.pid).not.toBe(b?.child.pid);
    expect(a?.port).not.toBe(b?.port);
    // The second process found the schema in place: it did not migrate again.
    expect(a?.output()).toContain('database migrated');
    expect(b?.output()).not.toContain('database migrated');
  });

  it('authorizes on A, exchanges the code and reads userinfo on B, refreshes on A and introspects on B', async () => {
    route = 'A';
    const request = supertest(publicUrl);
    const partner = await registerPartner({ request });
    const site = await createSite({ request }, partner.token);
    const user = {
      email: `two-${randomBytes(4).toString('hex')}@example.com`,
      password: 'correct horse battery',
    };
    await request
      .post('/api/v1/users/register')
      .send({ full_name: 'Two Processes', ...user })
      .expect(201);

    const t = { baseUrl: publicUrl };
    const config = await relyingParty(t, site);
    const { verifier, challenge } = pkce();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: site.redirect_uris[0] as string,
      scope: 'openid offline_access basic_info profile email AGE_18',
      prompt: 'consent',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state,
    });
    const before = served.length;
    const { callback, steps } = await authorizeInBrowser(t, new Browser(), url.href, { login: user });
    expect(steps).toEqual(['login', 'consent']);
    const onA = served.slice(before);
    expect(onA.map((entry) => entry.path)).toContain('/oauth2/authorize');
    expect(onA.some((entry) => entry.path.startsWith('/api/v1/oauth/interactions/'))).toBe(true);
    expect(onA.every((entry) => entry.replica === 'A')).toBe(true);

    route = 'B';
    let mark = served.length;
    const tokens = await client.authorizationCodeGrant(config, new URL(callback), {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.refresh_token).toBeTypeOf('string');
    const sub = tokens.claims()?.sub as string;
    const info = await client.fetchUserInfo(config, tokens.access_token, sub);
    expect(info).toMatchObject({ sub, email: user.email, name: 'Two Processes', age_verified: false });
    expect(served.slice(mark).map((entry) => `${entry.replica} ${entry.path} ${entry.status}`)).toEqual([
      'B /oauth2/token 200',
      'B /oauth2/userinfo 200',
    ]);

    route = 'A';
    mark = served.length;
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token as string);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(served.slice(mark).map((entry) => `${entry.replica} ${entry.path} ${entry.status}`)).toEqual([
      'A /oauth2/token 200',
    ]);

    route = 'B';
    mark = served.length;
    const active = await client.tokenIntrospection(config, refreshed.access_token);
    expect(active).toMatchObject({ active: true, client_id: site.client_id, sub });
    expect(String(active.scope).split(' ')).toEqual(expect.arrayContaining(['basic_info', 'AGE_18']));
    // The refresh on A rotated the refresh token: B sees the old one as consumed, so it is no longer active.
    const rotated = await client.tokenIntrospection(config, tokens.refresh_token as string);
    expect(rotated.active).toBe(false);
    expect(
      served.slice(mark).every((entry) => entry.replica === 'B' && entry.path === '/oauth2/introspect'),
    ).toBe(true);
  });

  it('redeems one code sent to both processes at the same moment once, and revokes the grant', async () => {
    route = 'A';
    const request = supertest(publicUrl);
    const partner = await registerPartner({ request });
    const site = await createSite({ request }, partner.token);
    const user = {
      email: `race-${randomBytes(4).toString('hex')}@example.com`,
      password: 'correct horse battery',
    };
    await request
      .post('/api/v1/users/register')
      .send({ full_name: 'Race', ...user })
      .expect(201);
    const t = { baseUrl: publicUrl };
    const config = await relyingParty(t, site);
    const browser = new Browser();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const { verifier, challenge } = pkce();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: site.redirect_uris[0] as string,
        scope: 'openid basic_info',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      const { callback } = await authorizeInBrowser(t, browser, url.href, { login: user });
      const code = new URL(callback).searchParams.get('code') as string;
      // Straight to each replica's own port, at once (a client retrying through a load balancer, or an attacker).
      const exchange = (replica: Replica) =>
        fetch(`http://127.0.0.1:${replicas.get(replica)?.port}/oauth2/token`, {
          method: 'POST',
          headers: {
            Authorization: `Basic ${Buffer.from(`${site.client_id}:${site.client_secret}`).toString('base64')}`,
            'Content-Type': 'application/x-www-form-urlencoded',
          },
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code,
            code_verifier: verifier,
            redirect_uri: site.redirect_uris[0] as string,
          }),
        }).then(async (response) => ({
          status: response.status,
          body: (await response.json()) as Record<string, string>,
        }));
      const answers = await Promise.all([exchange('A'), exchange('B')]);
      expect(
        answers.filter((answer) => answer.status === 200),
        JSON.stringify(answers),
      ).toHaveLength(1);
      expect(answers.find((answer) => answer.status !== 200)?.body.error).toBe('invalid_grant');
      const winner = answers.find((answer) => answer.status === 200)?.body.access_token as string;
      const introspected = await client.tokenIntrospection(config, winner);
      expect(introspected.active).toBe(false);
    }
  });

  it('publishes the same signing keys from both processes', async () => {
    route = 'A';
    const a = await (await fetch(`${publicUrl}/oauth2/jwks`)).json();
    route = 'B';
    const b = await (await fetch(`${publicUrl}/oauth2/jwks`)).json();
    expect((a as { keys: unknown[] }).keys.length).toBeGreaterThan(0);
    expect(b).toEqual(a);
  });
});

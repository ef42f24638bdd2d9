/**
 * The baseline for oidc-bench.ts: a bare oidc-provider with its in-memory adapter and development interactions,
 * configured like ours where it matters for the measured paths (PKCE S256 required, opaque access tokens,
 * introspection and userinfo on, the same scopes and claims). Started as its own process, like our server.
 * With BARE_DATABASE_URL it keeps its state in PostgreSQL instead (bare-provider-pg.ts: the floor under issue 26
 * item 6's targets) and serves its statement count at /metrics as ours does.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { BARE_CLIENT } from './bare-provider-client';
import { floorAdapter } from './bare-provider-pg';

const floor = process.env.BARE_DATABASE_URL ? await floorAdapter(process.env.BARE_DATABASE_URL) : null;

const server = createServer();
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: BARE_CLIENT.client_id,
        client_secret: BARE_CLIENT.client_secret,
        redirect_uris: [BARE_CLIENT.redirect_uri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
        scope: 'openid offline_access basic_info AGE_18',
      },
    ],
    scopes: ['openid', 'offline_access', 'basic_info', 'AGE_18'],
    claims: {
      basic_info: ['email', 'email_verified', 'name'],
      AGE_18: ['age_verified', 'age_threshold', 'age_over_18', 'verification_timestamp'],
    },
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({
        sub,
        email: `${sub}@bench.example`,
        email_verified: true,
        name: 'Bench User',
        age_verified: true,
        age_threshold: 18,
        age_over_18: true,
        verification_timestamp: null,
      }),
    }),
    pkce: { required: () => true },
    routes: {
      authorization: '/authorize',
      token: '/token',
      userinfo: '/userinfo',
      introspection: '/introspect',
      revocation: '/revoke',
      jwks: '/jwks',
    },
    features: {
      devInteractions: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: true },
    },
    cookies: { keys: ['bench-cookie-key-0123456789abcdef'] },
    // On PostgreSQL, tokens do not end with the provider session, as ours (oidc/provider.ts): otherwise each token's
    // use would read the session too, a statement ours does not make.
    ...(floor ? { adapter: floor.FloorAdapter, expiresWithSession: async () => false } : {}),
  });
  // The harness finds every endpoint through discovery, so the provider stays at the root here.
  const handle = provider.callback();
  server.on('request', (request, response) => {
    if (floor && request.url === '/metrics')
      response.end(`attestly_db_round_trips_total ${floor.roundTrips()}\n`);
    else void handle(request, response);
  });
  console.log(JSON.stringify({ port, msg: 'bare oidc-provider listening' }));
});

// Exit normally on SIGTERM, so that a CPU profile (OIDC_BENCH_PROFILE_DIR) is written for this side too.
process.on('SIGTERM', () => process.exit(0));

import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { createApp } from '../src/app';
import { bootstrap } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import type { Deps } from '../src/core/deps';
import { createLogger } from '../src/logger';
import { createOidc, type Oidc } from '../src/oidc';
import { createTestApp, logCapture, type TestApp } from './helpers';
import {
  Browser,
  authorizeInBrowser,
  createSite,
  pkce,
  registerPartner,
  relyingParty,
  verifiedUser,
} from './oidc-helpers';

/**
 * DESIGN.md §2: nothing shared lives in process memory. A second app instance (its own provider, caches and
 * cookies-keys derivation) on the same database and master key finishes a flow the first one started.
 */
let t: TestApp;
let second: { server: Server; url: string; deps: Deps; oidc: Oidc };

beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
  const config = loadConfig({
    ATTESTLY_DATA_DIR: t.config.dataDir,
    DATABASE_URL: t.config.databaseUrl ?? undefined,
    ATTESTLY_PUBLIC_URL: t.config.publicUrl,
    ATTESTLY_MASTER_KEY: t.config.masterKey.toString('hex'),
    ATTESTLY_PASSWORD_COST: '12',
    LOG_LEVEL: 'silent',
    ATTESTLY_WEB_DIR: path.join(t.config.dataDir, 'no-web'),
  });
  const deps = await bootstrap(config, createLogger(config, logCapture().stream));
  const oidc = await createOidc(deps, { keyCheckIntervalMs: 0 });
  const { app } = createApp(deps, { oidc });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  second = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, deps, oidc };
});
afterAll(async () => {
  if (second) {
    second.oidc.close();
    second.server.closeAllConnections();
    await new Promise<void>((resolve) => second.server.close(() => resolve()));
  }
  await t?.close();
});

describe('two app instances on one database', () => {
  it('authorizes on one instance, exchanges the code and reads userinfo on the other', async () => {
    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token);
    const user = await verifiedUser(t, { proven_min_age: 18 });
    const config = await relyingParty(t, site);
    const { verifier, challenge } = pkce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: site.redirect_uris[0] as string,
      scope: 'openid basic_info AGE_18',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'st',
    });
    const { callback } = await authorizeInBrowser(t, new Browser(), url.href, { login: user });

    // From here on every request of the relying party goes to the second instance.
    const seen: string[] = [];
    config[client.customFetch] = (target, options) => {
      const rewritten = target.replace(t.baseUrl, second.url);
      seen.push(rewritten);
      return fetch(rewritten, options as RequestInit);
    };
    const tokens = await client.authorizationCodeGrant(config, new URL(callback), {
      pkceCodeVerifier: verifier,
      expectedState: 'st',
    });
    const info = await client.fetchUserInfo(config, tokens.access_token, tokens.claims()?.sub as string);
    expect(info).toMatchObject({ age_verified: true });
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.every((target) => target.startsWith(second.url))).toBe(true);
  });

  it('shares signing keys: both instances publish the same JWKS', async () => {
    const first = await (await fetch(`${t.baseUrl}/oauth2/jwks`)).json();
    const other = await (await fetch(`${second.url}/oauth2/jwks`)).json();
    expect(other).toEqual(first);
  });
});

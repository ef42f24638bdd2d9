import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { createTestApp, onPostgres, type TestApp } from './helpers';
import {
  authorizeInBrowser,
  Browser,
  createSite,
  fullFlow,
  pkce,
  registerPartner,
  verifiedUser,
  type CreatedSite,
} from './oidc-helpers';

/**
 * Round trips to the database per hot operation (db.roundTrips: messages to PostgreSQL; on SQLite calls into it), so
 * that a change adding one to a flow, a userinfo or an introspection fails here rather than only slowing
 * `npm run bench` (docs/benchmarks.md, issue 26 item 6). The counts are the same on both databases.
 */
const EXPECTED = {
  // Session with its account and the account's consent for the site with its grant; the code; the session.
  authorize: 3,
  // Code with its grant and account; consuming it; the access token; the audit row (lock and append, one message).
  token: 4,
  // Access token with its grant and account.
  userinfo: 1,
  // Access token with its grant (and a refresh token of the same value).
  introspection: 1,
  // Refresh token with its grant and account; consuming it; the access token; the rotated refresh token; audit.
  refresh: 5,
  // The plain API's hot read: the session with its account (sessions/service.ts authenticate).
  profile: 1,
};

let t: TestApp;
let site: CreatedSite;

beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
  const partner = await registerPartner(t);
  site = await createSite(t, partner.token);
});
afterAll(async () => {
  await t?.close();
});

/** Round trips while `work` runs (after what earlier requests left running has settled). */
async function roundTripsOf(work: () => Promise<unknown>): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 20));
  const before = t.db.roundTrips();
  await work();
  await new Promise((resolve) => setTimeout(resolve, 20));
  return t.db.roundTrips() - before;
}

describe(`round trips per hot operation (${onPostgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('authorize, token, userinfo, introspection, refresh and GET /users/profile take their designed counts', async () => {
    const user = await verifiedUser(t, { proven_min_age: 18 });
    const browser = new Browser();
    const first = await fullFlow(t, site, user, {
      scope: 'openid offline_access basic_info AGE_18',
      prompt: 'consent',
      browser,
    });
    const { config } = first;
    let refreshToken = first.tokens.refresh_token as string;
    expect(refreshToken).toBeTruthy();

    // Each operation three times, keeping the fewest: the sites' client lookup is cached for 2 s
    // (oidc/clients.ts CLIENT_CACHE_TTL_MS), and a run on a busy machine may see it lapse once.
    const fewest: Record<string, number> = {};
    const count = (name: keyof typeof EXPECTED, trips: number) => {
      fewest[name] = Math.min(fewest[name] ?? Number.POSITIVE_INFINITY, trips);
    };
    for (let round = 0; round < 3; round += 1) {
      const { verifier, challenge } = pkce();
      const state = client.randomState();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: site.redirect_uris[0] as string,
        scope: 'openid basic_info AGE_18',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state,
      });
      // Signed in and consented already: the authorization request redirects straight back with a code.
      let callback = '';
      count(
        'authorize',
        await roundTripsOf(async () => {
          const result = await authorizeInBrowser(t, browser, url.href, {});
          expect(result.steps).toEqual([]);
          callback = result.callback;
        }),
      );
      let accessToken = '';
      count(
        'token',
        await roundTripsOf(async () => {
          const tokens = await client.authorizationCodeGrant(config, new URL(callback), {
            pkceCodeVerifier: verifier,
            expectedState: state,
          });
          accessToken = tokens.access_token;
        }),
      );
      count(
        'userinfo',
        await roundTripsOf(async () => {
          const answer = await t.request
            .get('/oauth2/userinfo')
            .set('Authorization', `Bearer ${accessToken}`)
            .expect(200);
          expect(answer.body.age_over_18).toBe(true);
        }),
      );
      count(
        'introspection',
        await roundTripsOf(async () => {
          const answer = await t.request
            .post('/oauth2/introspect')
            .auth(site.client_id, site.client_secret as string)
            .type('form')
            .send({ token: accessToken })
            .expect(200);
          expect(answer.body.active).toBe(true);
        }),
      );
      count(
        'profile',
        await roundTripsOf(async () => {
          const answer = await t.request
            .get('/api/v1/users/profile')
            .set('Authorization', `Bearer ${user.token}`)
            .expect(200);
          expect(answer.body.email).toBe(user.email);
        }),
      );
      count(
        'refresh',
        await roundTripsOf(async () => {
          const answer = await t.request
            .post('/oauth2/token')
            .auth(site.client_id, site.client_secret as string)
            .type('form')
            .send({ grant_type: 'refresh_token', refresh_token: refreshToken })
            .expect(200);
          refreshToken = answer.body.refresh_token as string;
        }),
      );
    }
    expect(fewest).toEqual(EXPECTED);
  });
});

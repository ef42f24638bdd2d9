import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { createTestApp, type TestApp } from './helpers';
import {
  Browser,
  authorizeInBrowser,
  createSite,
  eventually,
  pkce,
  registerPartner,
  relyingParty,
  verifiedUser,
  type CreatedSite,
} from './oidc-helpers';

/**
 * RFC 6749 §4.1.2 and RFC 9700 §4.14.2: an authorization code is used once and a refresh token is rotated once,
 * even when the same one reaches the server (or two replicas) twice at the same moment. The loser gets
 * `invalid_grant` and the grant is revoked, so the winner's tokens die with it.
 */
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

function tokenRequest(params: Record<string, string>) {
  return fetch(`${t.baseUrl}/oauth2/token`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(`${site.client_id}:${site.client_secret}`).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(params),
  }).then(async (response) => ({
    status: response.status,
    body: (await response.json()) as Record<string, string>,
  }));
}

function introspect(token: string) {
  return fetch(`${t.baseUrl}/oauth2/introspect`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(`${site.client_id}:${site.client_secret}`).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ token }),
  }).then(async (response) => (await response.json()) as { active: boolean });
}

/** Signs in and consents; returns an unused authorization code with its PKCE verifier. */
async function freshCode(user: { email: string; password: string }, browser: Browser, scope: string) {
  const config = await relyingParty(t, site);
  const { verifier, challenge } = pkce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: site.redirect_uris[0] as string,
    scope,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...(scope.includes('offline_access') ? { prompt: 'consent' } : {}),
  });
  const { callback } = await authorizeInBrowser(t, browser, url.href, { login: user });
  const code = new URL(callback).searchParams.get('code');
  if (!code) throw new Error(`no code in ${callback}`);
  return { code, verifier };
}

const grantRow = (grantId: string) => t.db.models.OAuthAuthorization.findByPk(grantId);

describe('authorization code and refresh token races', () => {
  it('redeems a code sent twice at the same moment once; the loser gets invalid_grant and the grant is revoked', async () => {
    const user = await verifiedUser(t, { proven_min_age: 30 });
    const browser = new Browser();
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const { code, verifier } = await freshCode(user, browser, 'openid basic_info AGE_18');
      const exchange = () =>
        tokenRequest({
          grant_type: 'authorization_code',
          code,
          code_verifier: verifier,
          redirect_uri: site.redirect_uris[0] as string,
        });
      const answers = await Promise.all([exchange(), exchange()]);
      const won = answers.filter((answer) => answer.status === 200);
      const lost = answers.filter((answer) => answer.status !== 200);
      expect(won, JSON.stringify(answers)).toHaveLength(1);
      expect(lost[0]).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      // The grant is revoked: the winner's access token no longer works, and the user's token list says so.
      const accessToken = won[0]?.body.access_token as string;
      expect((await introspect(accessToken)).active).toBe(false);
      // (When the loser arrives after the winner has finished, the provider itself sees the reuse and revokes the
      // grant through its `grant.revoked` event, recorded just after its answer.)
      await eventually(async () => {
        const grants = await t.db.models.OAuthAuthorization.findAll({ where: { user_id: user.user.id } });
        return grants.every((grant) => grant.revoked_at !== null);
      });
      await eventually(
        async () =>
          (await t.db.models.AuditLog.count({ where: { event_type: 'oauth.token_revoked' } })) > attempt,
      );
    }
  });

  it('rotates a refresh token sent twice at the same moment once, and revokes the grant', async () => {
    const user = await verifiedUser(t, { proven_min_age: 30 });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const { code, verifier } = await freshCode(user, new Browser(), 'openid basic_info offline_access');
      const first = await tokenRequest({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: site.redirect_uris[0] as string,
      });
      expect(first.status).toBe(200);
      const refreshToken = first.body.refresh_token as string;
      expect(refreshToken).toBeTruthy();
      const rotate = () => tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken });
      const answers = await Promise.all([rotate(), rotate()]);
      const won = answers.filter((answer) => answer.status === 200);
      expect(won, JSON.stringify(answers)).toHaveLength(1);
      expect(answers.find((answer) => answer.status !== 200)).toMatchObject({
        status: 400,
        body: { error: 'invalid_grant' },
      });
      // No live refresh token is left: the winner's new one is refused too.
      const again = await tokenRequest({
        grant_type: 'refresh_token',
        refresh_token: won[0]?.body.refresh_token as string,
      });
      expect(again).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      const grantId = (
        await t.db.models.OAuthAuthorization.findOne({
          where: { user_id: user.user.id },
          order: [['created_at', 'DESC']],
        })
      )?.id as string;
      await eventually(async () => (await grantRow(grantId))?.revoked_at);
    }
  });
});

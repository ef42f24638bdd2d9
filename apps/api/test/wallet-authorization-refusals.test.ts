import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WalletClientError } from '../src/modules/users/wallet/clients';
import { createTestApp, type TestApp } from './helpers';
import { authorizeInBrowser, Browser, createSite, pkce, registerPartner, uidFrom } from './oidc-helpers';
import { provenUser, REDIRECT, startIssuance, WALLET } from './wallet-authorization-helpers';

/**
 * Issue 24 item 3, refusals: what the authorization code flow turns away for registered wallets — unknown clients,
 * unregistered redirect URIs, requests without PKCE, scopes a wallet may not ask for, a wrong code verifier,
 * authorization details it does not issue or from a partner site — and registrations the operator gets wrong. Over
 * HTTP against the real server, on SQLite or PostgreSQL.
 */

let t: TestApp;
let issuer: string;

beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
  issuer = `${t.baseUrl}/oauth2`;
  await t.oidc!.wallet.clients.add({ clientId: WALLET, name: 'Example Wallet', redirectUris: [REDIRECT] });
});
afterAll(async () => {
  await t?.close();
});

describe('OpenID4VCI authorization code flow: refusals', () => {
  it('refuses authorization_details naming an unknown configuration, or from a partner site', async () => {
    const { challenge } = pkce();
    const ask = (clientId: string, redirectUri: string, detail: object) =>
      fetch(
        `${issuer}/authorize?${new URLSearchParams({
          response_type: 'code',
          client_id: clientId,
          redirect_uri: redirectUri,
          authorization_details: JSON.stringify([detail]),
          code_challenge: challenge,
          code_challenge_method: 'S256',
        })}`,
        { redirect: 'manual' },
      );
    const unknown = await ask(WALLET, REDIRECT, {
      type: 'openid_credential',
      credential_configuration_id: 'driving_licence',
    });
    expect(new URL(unknown.headers.get('location')!).searchParams.get('error')).toBe(
      'invalid_authorization_details',
    );

    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token);
    const fromSite = await ask(site.client_id, site.redirect_uris[0]!, {
      type: 'openid_credential',
      credential_configuration_id: 'proof_of_age',
    });
    const answer = new URL(fromSite.headers.get('location')!);
    expect(`${answer.origin}${answer.pathname}`).toBe(site.redirect_uris[0]);
    expect(answer.searchParams.get('error')).toBe('invalid_authorization_details');
  });

  it('refuses an unregistered client and a redirect URI that was not registered, without redirecting', async () => {
    const challenge = pkce().challenge;
    const query = (overrides: Record<string, string>) =>
      new URLSearchParams({
        response_type: 'code',
        client_id: WALLET,
        redirect_uri: REDIRECT,
        scope: 'proof_of_age',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        ...overrides,
      });
    const unknown = await fetch(`${issuer}/authorize?${query({ client_id: 'unknown.wallet' })}`, {
      redirect: 'manual',
    });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: string }).error).toBe('invalid_client');

    for (const redirect of [`${REDIRECT}/other`, 'https://evil.example/callback']) {
      const wrong = await fetch(`${issuer}/authorize?${query({ redirect_uri: redirect })}`, {
        redirect: 'manual',
      });
      expect(wrong.status).toBe(400);
      expect(wrong.headers.get('location')).toBeNull();
      expect(((await wrong.json()) as { error: string }).error).toBe('invalid_redirect_uri');
    }
  });

  it('refuses a request without PKCE, and OpenID Connect or product scopes for a wallet', async () => {
    const base = { response_type: 'code', client_id: WALLET, redirect_uri: REDIRECT };
    const noPkce = await fetch(
      `${issuer}/authorize?${new URLSearchParams({ ...base, scope: 'proof_of_age' })}`,
      { redirect: 'manual' },
    );
    const back = new URL(noPkce.headers.get('location') ?? 'about:blank');
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('error_description')).toMatch(/PKCE/);

    const { challenge } = pkce();
    for (const scope of ['openid proof_of_age', 'AGE_18 proof_of_age']) {
      const asked = await fetch(
        `${issuer}/authorize?${new URLSearchParams({ ...base, scope, code_challenge: challenge, code_challenge_method: 'S256' })}`,
        { redirect: 'manual' },
      );
      const answer = new URL(asked.headers.get('location') ?? 'about:blank');
      expect(answer.searchParams.get('error')).toBe('invalid_scope');
    }
  });

  it('refuses a wrong code verifier at the token endpoint', async () => {
    const user = await provenUser(t, 19);
    const flow = await startIssuance(t, ['age_sd_jwt']);
    const { callback } = await authorizeInBrowser(t, new Browser(), flow.authorizationRequestUrl, {
      login: { email: user.email, password: user.password },
      consent: 'wallet',
    });
    const code = new URL(callback).searchParams.get('code') as string;
    const response = await fetch(`${issuer}/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: WALLET,
        code,
        redirect_uri: REDIRECT,
        code_verifier: pkce().verifier,
      }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_grant');
  });

  it('registers wallet clients with exact redirect URIs and refuses bad registrations', async () => {
    const clients = t.oidc!.wallet.clients;
    await expect(
      clients.add({ clientId: 'second.wallet', redirectUris: ['eudi-openid4ci://authorize'] }),
    ).resolves.toMatchObject({ clientId: 'second.wallet', name: 'second.wallet' });
    for (const [input, message] of [
      [{ clientId: WALLET, redirectUris: [REDIRECT] }, /already registered/],
      [{ clientId: 'attestly-wallet', redirectUris: [REDIRECT] }, /reserved/],
      [{ clientId: 'x', redirectUris: [REDIRECT] }, /client id/],
      [{ clientId: 'third.wallet', redirectUris: [] }, /at least one/],
      [{ clientId: 'third.wallet', redirectUris: ['http://wallet.example/cb'] }, /loopback/],
      [{ clientId: 'third.wallet', redirectUris: ['https://wallet.example/cb#x'] }, /fragment|normal form/],
      [{ clientId: 'third.wallet', redirectUris: ['javascript:alert(1)'] }, /scheme/],
    ] as const) {
      await expect(clients.add({ ...input, redirectUris: [...input.redirectUris] })).rejects.toThrow(message);
      await expect(clients.add({ ...input, redirectUris: [...input.redirectUris] })).rejects.toBeInstanceOf(
        WalletClientError,
      );
    }
    expect((await clients.list()).map((client) => client.clientId)).toEqual(
      expect.arrayContaining([WALLET, 'second.wallet']),
    );
    expect(await clients.remove('second.wallet')).toBe(true);
    expect(await clients.remove('second.wallet')).toBe(false);
  });

  it('grants nothing to a wallet that asked for no credential configuration', async () => {
    const user = await provenUser(t, 25);
    const browser = new Browser();
    let location = `${issuer}/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: WALLET,
      redirect_uri: REDIRECT,
      scope: 'something_else',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    })}`;
    for (let hop = 0; hop < 10 && !location.includes('/oauth/consent'); hop++) {
      if (new URL(location).pathname === '/oauth/login') {
        const login = await browser.json(
          `${t.baseUrl}/api/v1/oauth/interactions/${uidFrom(location)}/login`,
          'POST',
          { email: user.email, password: user.password },
        );
        location = String(login.body.redirect_to);
        continue;
      }
      const response = await browser.fetch(location);
      location = new URL(response.headers.get('location')!, location).href;
    }
    const uid = uidFrom(location);
    const details = await browser.json(`${t.baseUrl}/api/v1/oauth/interactions/${uid}`, 'GET');
    expect(details.body.wallet).toMatchObject({
      credentials: [],
      refused: expect.stringMatching(/no credential/),
    });
    const consent = await browser.json(
      `${t.baseUrl}/api/v1/oauth/interactions/${uid}/wallet-consent`,
      'POST',
      {},
    );
    expect(consent.status).toBe(400);
    expect(consent.body).toMatchObject({ code: 'wallet.nothing_requested' });
  });
});

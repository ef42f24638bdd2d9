import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Attestly, AttestlyError } from '../../sdk/src/index';
import { buildAuthorizationUrl, createPkcePair } from '../../sdk/src/browser';
import { createTestApp, type TestApp } from './helpers';
import { createSite, fullFlow, registerPartner, verifiedUser } from './oidc-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
});
afterAll(async () => {
  await t?.close();
});

async function keyFor(token: string, environment: 'sandbox' | 'live') {
  const response = await t.request
    .post('/api/v1/partners/api-keys')
    .set('Authorization', `Bearer ${token}`)
    .send({ environment })
    .expect(201);
  return response.body.api_key as string;
}

describe('@attestly/sdk server client against a running appliance', () => {
  it('validates a real access token, reads stats and the audit log with a live key', async () => {
    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token);
    const user = await verifiedUser(t, { proven_min_age: 21 });
    const { tokens } = await fullFlow(t, site, user);
    const attestly = new Attestly({
      apiKey: await keyFor(partner.token, 'live'),
      environment: 'production',
      baseUrl: `${t.baseUrl}/`,
    });
    const validation = await attestly.validateToken(tokens.access_token);
    expect(validation).toMatchObject({ active: true, client_id: site.client_id, site_id: site.id });
    expect(validation.sub).toBe(tokens.claims()?.sub);
    expect(await attestly.validateToken('not-a-token')).toEqual({ active: false });
    const stats = await attestly.getStats();
    expect(stats).toMatchObject({ total_sites: 1, active_tokens: 1, plan: expect.any(String) });
    const logs = await attestly.getAuditLogs({ event: 'partner.site_created', limit: 5 });
    expect(logs.total_count).toBe(1);
    expect(logs.audit_logs[0]).toMatchObject({ event: 'partner.site_created' });
  });

  it("sees only its own partner: another partner's token is inactive to it", async () => {
    const owner = await registerPartner(t);
    const site = await createSite(t, owner.token);
    const user = await verifiedUser(t, { proven_min_age: 18 });
    const { tokens } = await fullFlow(t, site, user);
    const other = await registerPartner(t);
    const attestly = new Attestly({
      apiKey: await keyFor(other.token, 'sandbox'),
      environment: 'sandbox',
      baseUrl: t.baseUrl,
    });
    expect(await attestly.validateToken(tokens.access_token)).toEqual({ active: false });
  });

  it('turns error answers into AttestlyError with the envelope', async () => {
    const partner = await registerPartner(t);
    const key = await keyFor(partner.token, 'live');
    await t.request
      .get('/api/v1/partners/api-keys')
      .set('Authorization', `Bearer ${partner.token}`)
      .expect(200)
      .then(async (list) => {
        await t.request
          .delete(`/api/v1/partners/api-keys/${list.body.api_keys[0].id}`)
          .set('Authorization', `Bearer ${partner.token}`)
          .expect(204);
      });
    const attestly = new Attestly({ apiKey: key, environment: 'production', baseUrl: t.baseUrl });
    const error = await attestly.getStats().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AttestlyError);
    expect(error).toMatchObject({
      status: 401,
      code: 'auth.invalid_api_key',
      detail: 'Invalid or revoked API key',
    });
    const bad = await new Attestly({ apiKey: `atk_live_${'x'.repeat(43)}`, baseUrl: t.baseUrl })
      .getAuditLogs({ severity: 'info' })
      .catch((caught: unknown) => caught);
    expect(bad).toMatchObject({ status: 401 });
  });

  it('refuses a key of the wrong environment and a missing base URL at construction', () => {
    expect(
      () => new Attestly({ apiKey: 'atk_test_abc', environment: 'production', baseUrl: t.baseUrl }),
    ).toThrow(/atk_live_/);
    expect(
      () => new Attestly({ apiKey: 'atk_live_abc', environment: 'sandbox', baseUrl: t.baseUrl }),
    ).toThrow(/atk_test_/);
    expect(() => new Attestly({ apiKey: 'atk_live_abc', baseUrl: 'verify.example.com' })).toThrow(/baseUrl/);
  });
});

describe('@attestly/sdk browser helper building blocks', () => {
  it('builds an authorization request this appliance accepts: PKCE S256, state, openid and basic_info', async () => {
    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token);
    const pkce = await createPkcePair();
    expect(pkce.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const url = new URL(
      buildAuthorizationUrl(
        {
          baseUrl: t.baseUrl,
          clientId: site.client_id,
          redirectUri: site.redirect_uris[0] as string,
          scopes: ['AGE_18'],
        },
        pkce,
        'state-1',
      ),
    );
    expect(url.searchParams.get('scope')).toBe('openid basic_info AGE_18');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    const answer = await fetch(url, { redirect: 'manual' });
    expect(answer.status).toBe(303);
    expect(new URL(answer.headers.get('location') as string).pathname).toBe('/oauth/login');
  });
});

import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectedPartnerListSchema,
  partnerLoginResponseSchema,
  partnerProfileSchema,
  siteListSchema,
  siteSchema,
  tokenValidationSchema,
  userTokenListSchema,
} from '@attestly/contracts';
import { createTestApp, type TestApp } from './helpers';
import { createSite, fullFlow, registerPartner, verifiedUser } from './oidc-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
});
afterAll(async () => {
  await t?.close();
});

const issues = (schema: v.GenericSchema, value: unknown) => v.safeParse(schema, value).issues;

describe('API reference for partners, sites, tokens and OAuth interactions', () => {
  it('describes each of these endpoints with a tag, a summary and its success answer', async () => {
    const { body } = await t.request.get('/api/v1/openapi.json').expect(200);
    const paths = body.paths as Record<
      string,
      Record<string, { tags: string[]; summary: string; responses: object }>
    >;
    const expected: Array<[string, string, string, string]> = [
      ['post', '/api/v1/partners/register', 'Partners', '201'],
      ['post', '/api/v1/partners/login', 'Partners', '200'],
      ['post', '/api/v1/partners/validate-token', 'Partners', '200'],
      ['get', '/api/v1/partners/sites', 'Sites', '200'],
      ['post', '/api/v1/partners/sites', 'Sites', '201'],
      ['delete', '/api/v1/partners/sites/{id}', 'Sites', '204'],
      ['post', '/api/v1/partners/sites/{id}/icon', 'Sites', '200'],
      ['get', '/api/v1/users/tokens', 'Tokens', '200'],
      ['delete', '/api/v1/users/tokens/{id}', 'Tokens', '204'],
      ['get', '/api/v1/oauth/interactions/{uid}', 'OAuth', '200'],
      ['post', '/api/v1/oauth/interactions/{uid}/consent', 'OAuth', '200'],
    ];
    for (const [method, path, tag, status] of expected) {
      const operation = paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation?.tags).toEqual([tag]);
      expect(operation?.summary).not.toMatch(/^(GET|POST|PUT|DELETE) /);
      expect(Object.keys(operation?.responses ?? {})).toContain(status);
    }
    expect(paths['/api/v1/partners/sites']?.get?.responses).toHaveProperty('401');
  });

  it('documents answers that match what the server really returns', async () => {
    const partner = await registerPartner(t);
    const login = await t.request
      .post('/api/v1/partners/login')
      .send({ email: partner.email, password: partner.password })
      .expect(200);
    expect(issues(partnerLoginResponseSchema, login.body)).toBeUndefined();
    const auth = { Authorization: `Bearer ${partner.token}` };
    const profile = await t.request.get('/api/v1/partners/profile').set(auth).expect(200);
    expect(issues(partnerProfileSchema, profile.body)).toBeUndefined();
    const site = await createSite(t, partner.token);
    expect(issues(siteSchema, site)).toBeUndefined();
    expect(site.client_secret).toBeTypeOf('string');
    const list = await t.request.get('/api/v1/partners/sites').set(auth).expect(200);
    expect(issues(siteListSchema, list.body)).toBeUndefined();

    const user = await verifiedUser(t, { proven_min_age: 21 });
    const { tokens } = await fullFlow(t, site, user);
    const validation = await t.request
      .post('/api/v1/partners/validate-token')
      .set(auth)
      .send({ token: tokens.access_token })
      .expect(200);
    expect(validation.body.active).toBe(true);
    expect(issues(tokenValidationSchema, validation.body)).toBeUndefined();
    const userAuth = { Authorization: `Bearer ${user.token}` };
    const mine = await t.request.get('/api/v1/users/tokens').set(userAuth).expect(200);
    expect(mine.body.tokens).toHaveLength(1);
    expect(issues(userTokenListSchema, mine.body)).toBeUndefined();
    const connected = await t.request.get('/api/v1/users/connected-partners').set(userAuth).expect(200);
    expect(connected.body.partners).toHaveLength(1);
    expect(issues(connectedPartnerListSchema, connected.body)).toBeUndefined();
  });
});

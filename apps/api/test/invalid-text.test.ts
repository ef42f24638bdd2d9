import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_TEXT_MESSAGE } from '../src/middleware/validate';
import { createAdmin } from './admin-helpers';
import { createTestApp, signUp, type TestApp } from './helpers';
import { registerPartner } from './oidc-helpers';

/**
 * Issue 21 item 10: NUL and other invalid text in any input are a 422 from the validation layer, on every route —
 * never a 500 from a database that refuses them (PostgreSQL) or an answer built on them (SQLite).
 */
let t: TestApp;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
  tokens.user = (await signUp(t)).token;
  tokens.partner = (await registerPartner(t)).token;
  tokens.admin = (await createAdmin(t)).token;
});
afterAll(async () => {
  await t.close();
});

interface Operation {
  parameters?: Array<{ name: string; in: 'path' | 'query' }>;
  'x-account-kinds'?: string[];
}

/** Every documented GET route with a query parameter, with the bearer token its account kind needs. */
async function queryRoutes() {
  const { body } = await t.request.get('/api/v1/openapi.json').expect(200);
  const routes: Array<{ path: string; query: string[]; token: string | null }> = [];
  for (const [template, item] of Object.entries(body.paths as Record<string, { get?: Operation }>)) {
    const get = item.get;
    const query = (get?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
    if (!get || query.length === 0) continue;
    const kind = (get['x-account-kinds'] ?? []).find((each) => tokens[each]);
    // Path parameters get a well-formed id of nothing: the query is validated before anything is looked up.
    const path = template.replace(/\{[^}]+\}/g, randomUUID());
    routes.push({ path, query, token: kind ? (tokens[kind] as string) : null });
  }
  return routes;
}

function get(path: string, token: string | null) {
  const request = t.request.get(path);
  return token ? request.set('Authorization', `Bearer ${token}`) : request;
}

describe('invalid text in query parameters', () => {
  it('answers 422 naming the parameter, on every documented GET route with a query, for NUL', async () => {
    const routes = await queryRoutes();
    // The three routes of the attack review are among them.
    expect(routes.map((route) => route.path)).toEqual(
      expect.arrayContaining([
        '/api/v1/partners/audit-logs',
        '/api/v1/admin/partners',
        '/api/v1/admin/audit-logs',
      ]),
    );
    const problems: string[] = [];
    for (const route of routes) {
      for (const name of route.query) {
        const url = `${route.path}?${encodeURIComponent(name)}=a%00b`;
        const response = await get(url, route.token);
        const named = (response.body.errors ?? []).some(
          (error: { path: string; message: string }) =>
            error.path === name && error.message === INVALID_TEXT_MESSAGE,
        );
        if (response.status !== 422 || !named || response.body.code !== 'validation.failed') {
          problems.push(`${url} → ${response.status} ${JSON.stringify(response.body)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('never answers 5xx to other odd text in a query parameter', async () => {
    const routes = await queryRoutes();
    const values = ['%00', '%ED%A0%80', '%FF%FE', '%C0%80', '%E2%80%AE', '%01%1F', `${'x'.repeat(5000)}%00`];
    const problems: string[] = [];
    for (const route of routes) {
      for (const name of route.query) {
        for (const value of values) {
          const url = `${route.path}?${encodeURIComponent(name)}=${value}`;
          const response = await get(url, route.token);
          if (response.status >= 500) problems.push(`${url} → ${response.status}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('invalid text elsewhere', () => {
  it('refuses NUL in a path parameter', async () => {
    const response = await get('/api/v1/admin/users/a%00b', tokens.admin as string);
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([{ path: 'id', message: INVALID_TEXT_MESSAGE }]);
  });

  it('refuses NUL and unpaired surrogates in a JSON body, also in keys and deep inside', async () => {
    const update = (body: string) =>
      t.request
        .put('/api/v1/users/profile')
        .set('Authorization', `Bearer ${tokens.user}`)
        .set('Content-Type', 'application/json')
        .send(body);
    const lone = await update('{"full_name":"Ada \\ud800 Lovelace"}');
    expect(lone.status).toBe(422);
    expect(lone.body.errors).toEqual([{ path: 'full_name', message: INVALID_TEXT_MESSAGE }]);
    const key = await update('{"full_name":"Ada","x\\u0000":1}');
    expect(key.status).toBe(422);
    const deep = await update(
      `{"full_name":"Ada","extra":${'['.repeat(20_000)}"\\u0000"${']'.repeat(20_000)}}`,
    );
    expect(deep.status).toBe(422);
    // A well-formed pair of surrogates is one character, and fine.
    const pair = await update('{"full_name":"Ada Lovelace \\ud83d\\ude00"}');
    expect(pair.status).toBeLessThan(500);
    expect(pair.body.errors ?? []).not.toContainEqual(
      expect.objectContaining({ message: INVALID_TEXT_MESSAGE }),
    );
  });
});

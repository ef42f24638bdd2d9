import { randomUUID } from 'node:crypto';
import type { Test } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createAdmin } from './admin-helpers';
import { createTestApp, randomClientIp, signUp, type TestApp } from './helpers';
import { registerPartner } from './oidc-helpers';

let t: TestApp;
const tokens: Record<string, string | null> = { anonymous: null };
beforeAll(async () => {
  t = await createTestApp();
  tokens.user = (await signUp(t)).token;
  tokens.partner = (await registerPartner(t)).token;
  const pending = 'setup-only@example.com';
  await t.services.admins.createAdmin({ email: pending, password: ADMIN_PASSWORD });
  const login = await t.request
    .post('/api/v1/auth/admin/login')
    .set('X-Forwarded-For', randomClientIp())
    .send({ email: pending, password: ADMIN_PASSWORD })
    .expect(200);
  tokens.admin_setup = login.body.access_token as string;
  tokens.admin = (await createAdmin(t)).token;
});
afterAll(async () => {
  await t.close();
});

const id = randomUUID();
const tokenId = 'abcdefghijklmnop';
/** Every call under /api/v1/admin (spec 02 §7 plus the actions made real). */
const ADMIN_CALLS: Array<[string, string, Record<string, unknown>?]> = [
  ['get', '/partners'],
  [
    'post',
    '/partners',
    { partner_name: 'X', contact_email: 'x@example.com', contact_name: 'X', website: 'https://x.example' },
  ],
  ['get', `/partners/${id}`],
  ['put', `/partners/${id}`, { plan: 'growth' }],
  ['post', `/partners/${id}/deactivate`, {}],
  ['post', `/partners/${id}/approve`, {}],
  ['post', `/partners/${id}/suspend`, {}],
  ['post', `/partners/${id}/regenerate-api-key`, {}],
  ['get', `/partners/${id}/sites`],
  [
    'post',
    `/partners/${id}/sites`,
    { site_name: 'S', domain: 's.example.com', redirect_uris: ['https://s.example.com/cb'] },
  ],
  ['get', '/users'],
  ['get', `/users/${id}`],
  ['get', `/users/${id}/verifications`],
  ['post', `/users/${id}/flag`, { reason: 'r' }],
  ['post', `/users/${id}/unflag`, {}],
  ['put', `/users/${id}`, { full_name: 'N' }],
  ['post', `/users/${id}/lock`, {}],
  ['post', `/users/${id}/unlock`, {}],
  ['delete', `/users/${id}`, {}],
  ['get', '/verifications'],
  ['get', `/verifications/${id}`],
  ['post', `/verifications/${id}/approve`, { reviewer_notes: 'n' }],
  ['post', `/verifications/${id}/reject`, { rejection_reason: 'r', reviewer_notes: 'n' }],
  ['post', `/verifications/${id}/retrigger`, {}],
  ['get', `/verifications/${id}/media/${randomUUID()}`],
  ['get', '/tokens'],
  ['post', `/tokens/${tokenId}/revoke`, {}],
  ['get', '/oauth-authorizations'],
  ['post', `/oauth-authorizations/${tokenId}/revoke`, {}],
  ['get', '/system/stats'],
  ['get', '/system/health'],
  ['get', '/system/alerts'],
  ['get', '/audit-logs'],
];

function call(method: string, path: string, token: string | null, body?: Record<string, unknown>) {
  const request = (t.request as unknown as Record<string, (url: string) => Test>)[method]!(`/api/v1${path}`);
  if (token) request.set('Authorization', `Bearer ${token}`);
  return body ? request.send(body) : request;
}

describe('authorisation matrix: only a full admin session reaches /api/v1/admin', () => {
  for (const kind of ['anonymous', 'user', 'partner', 'admin_setup'] as const) {
    it(`refuses ${kind} on every admin call with 401 and the envelope`, async () => {
      for (const [method, path, body] of ADMIN_CALLS) {
        const response = await call(method, `/admin${path}`, tokens[kind] ?? null, body);
        expect({ path, method, status: response.status }).toEqual({ path, method, status: 401 });
        expect(response.body).toMatchObject({
          code: expect.stringMatching(/^auth\./),
          request_id: expect.any(String),
        });
      }
    });
  }

  it('lets an admin through every call (each answers for itself: 200, 201, 204, 404 or 409)', async () => {
    for (const [method, path, body] of ADMIN_CALLS) {
      const response = await call(method, `/admin${path}`, tokens.admin ?? null, body);
      expect({ path, method, ok: [200, 201, 204, 404, 409].includes(response.status) }).toEqual({
        path,
        method,
        ok: true,
      });
    }
  });
});

describe('authorisation matrix: /api/v1/auth/admin', () => {
  const setupCalls: Array<[string, Record<string, unknown>]> = [
    ['/auth/admin/setup-2fa', { password: 'x' }],
    ['/auth/admin/enable-2fa', { totp_code: '123456' }],
  ];
  it('opens setup-2fa and enable-2fa to the setup token only', async () => {
    for (const kind of ['anonymous', 'user', 'partner', 'admin'] as const) {
      for (const [path, body] of setupCalls) {
        expect({ kind, path, status: (await call('post', path, tokens[kind] ?? null, body)).status }).toEqual(
          {
            kind,
            path,
            status: 401,
          },
        );
      }
    }
    // The setup token gets past authorisation (a wrong password or code is then its own answer).
    expect(
      (await call('post', '/auth/admin/setup-2fa', tokens.admin_setup ?? null, { password: 'x' })).status,
    ).toBe(422);
    expect(
      (await call('post', '/auth/admin/enable-2fa', tokens.admin_setup ?? null, { totp_code: '123456' }))
        .status,
    ).toBe(409);
  });

  it('opens logout and me to a full admin session only', async () => {
    for (const kind of ['anonymous', 'user', 'partner', 'admin_setup'] as const) {
      expect((await call('get', '/auth/admin/me', tokens[kind] ?? null)).status).toBe(401);
      expect((await call('post', '/auth/admin/logout', tokens[kind] ?? null)).status).toBe(401);
    }
    expect((await call('get', '/auth/admin/me', tokens.admin ?? null)).status).toBe(200);
  });

  it('answers login and verify-2fa without a token, and never with a full token for a password alone', async () => {
    for (const kind of ['anonymous', 'user', 'partner', 'admin_setup', 'admin'] as const) {
      const login = await call('post', '/auth/admin/login', tokens[kind] ?? null, {
        email: 'nobody@example.com',
        password: 'x',
      }).set('X-Forwarded-For', randomClientIp());
      expect(login.status).toBe(401);
      expect(login.body.code).toBe('auth.invalid_credentials');
      const verify = await call('post', '/auth/admin/verify-2fa', tokens[kind] ?? null, {
        temp_token: 'att_unknown',
        code: '123456',
      });
      expect(verify.status).toBe(401);
      expect(verify.body.code).toBe('auth.invalid_temp_token');
    }
  });
});

describe('bad input is a 422 (or 404), never a 500', () => {
  const bad: Array<[string, string, number, RegExp?]> = [
    ['get', '/users?limit=101', 422, /limit must be at most 100/],
    ['get', '/users?limit=0', 422, /limit must be at least 1/],
    ['get', '/users?skip=-1', 422, /skip must be a whole number/],
    ['get', '/users?skip=1000001', 422, /skip must be at most 1000000/],
    ['get', '/users?verification_status=maybe', 422],
    ['get', '/users?flagged_only=yes', 422, /flagged_only must be true or false/],
    ['get', '/users?country=USA', 422],
    ['get', '/verifications?start_date=yesterday', 422, /start_date must be an ISO date/],
    ['get', '/verifications?start_date=2026-13-45', 422],
    [
      'get',
      '/verifications?start_date=2026-11-27&end_date=2026-11-26',
      422,
      /start_date must not be after end_date/,
    ],
    ['get', '/verifications?status=done', 422],
    ['get', '/verifications?needs_review=maybe', 422],
    ['get', '/verifications?user_id=42', 422],
    ['get', '/audit-logs?end_date=2026-02-30T25:00:00Z', 422],
    ['get', '/audit-logs?limit=1000', 422],
    ['get', '/audit-logs?severity=loud', 422],
    ['get', '/tokens?active_only=perhaps', 422],
    ['get', '/tokens?partner_id=x', 422],
    ['get', '/partners?status=gone', 422],
    ['get', '/partners?plan=gold', 422],
    ['get', '/partners/not-a-uuid', 422, /Partner not found/],
    ['get', '/users/not-a-uuid', 422, /User not found/],
    ['get', '/verifications/not-a-uuid', 422, /Verification not found/],
    ['get', `/users/${randomUUID()}`, 404, /User not found/],
    ['get', `/partners/${randomUUID()}`, 404, /Partner not found/],
    ['get', `/verifications/${randomUUID()}`, 404, /Verification not found/],
  ];
  it('answers each with the envelope and a clear message', async () => {
    for (const [method, path, status, message] of bad) {
      const response = await call(method, `/admin${path}`, tokens.admin ?? null);
      expect({ path, status: response.status }).toEqual({ path, status });
      expect(response.body.request_id).toEqual(expect.any(String));
      if (message) expect(response.body.detail).toMatch(message);
    }
  });

  it('validates bodies with the spec’s messages', async () => {
    const v = randomUUID();
    const approve = await call('post', `/admin/verifications/${v}/approve`, tokens.admin ?? null, {});
    expect(approve.status).toBe(422);
    expect(approve.body.detail).toBe('Reviewer notes are required');
    const override = await call('post', `/admin/verifications/${v}/approve`, tokens.admin ?? null, {
      reviewer_notes: 'ok',
      confidence_override: 1.5,
    });
    expect(override.body.detail).toBe('Confidence override must be a number from 0 to 1');
    const reject = await call('post', `/admin/verifications/${v}/reject`, tokens.admin ?? null, {
      reviewer_notes: 'x',
    });
    expect(reject.body.detail).toBe('Rejection reason is required');
    const flag = await call('post', `/admin/users/${v}/flag`, tokens.admin ?? null, { priority: 'urgent' });
    expect(flag.status).toBe(422);
    expect(flag.body.errors.map((error: { message: string }) => error.message)).toEqual(
      expect.arrayContaining(['Reason is required']),
    );
    const partner = await call('post', '/admin/partners', tokens.admin ?? null, { partner_name: 'A' });
    expect(partner.status).toBe(422);
    const site = await call('post', `/admin/partners/${v}/sites`, tokens.admin ?? null, {
      site_name: 'S',
      domain: 'x',
    });
    expect(site.status).toBe(422);
    const text = await t.request
      .post(`/api/v1/admin/users/${v}/flag`)
      .set('Authorization', `Bearer ${tokens.admin}`)
      .set('Content-Type', 'application/json')
      .send('{not json');
    expect(text.status).toBe(400);
  });
});

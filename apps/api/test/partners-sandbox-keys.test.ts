import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';
import {
  createSite,
  eventually,
  fullFlow,
  registerPartner,
  verifiedUser,
  type CreatedSite,
} from './oidc-helpers';

/**
 * A sandbox API key (`atk_test_…`) sees only its partner's sandbox sites (issue 21 item 7): their tokens at
 * validate-token, their figures at /partners/stats and their entries at /partners/audit-logs — every endpoint an API
 * key reaches. Live keys and portal sessions keep seeing everything.
 */
let t: TestApp;
let partner: Awaited<ReturnType<typeof registerPartner>>;
let live: CreatedSite;
let sandbox: CreatedSite;
let keys: { sandbox: string; live: string };
let tokens: { live: string; sandbox: string };

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

async function seedVerification(userId: string, site: CreatedSite, status: string, isSandbox: boolean) {
  const now = t.clock.now();
  await t.db.models.Verification.create({
    user_id: userId,
    verification_type: 'age',
    verification_method: 'credit_card',
    status: status as 'approved',
    confidence_score: null,
    age_threshold: 18,
    message: 'seeded',
    document_analysis: null,
    subject_fingerprint: null,
    partner_id: partner.partner.id,
    site_id: site.id,
    sandbox: isSandbox,
    reviewed_at: null,
    reviewed_by: null,
    expires_at: null,
    created_at: now,
    updated_at: now,
  });
}

beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
  partner = await registerPartner(t);
  live = await createSite(t, partner.token);
  const created = await t.request
    .post('/api/v1/partners/sites')
    .set(auth(partner.token))
    .send({
      site_name: 'Test shop',
      domain: 'test.example.com',
      redirect_uris: ['https://test.example.com/callback'],
      allowed_scopes: ['basic_info', 'AGE_18'],
      sandbox: true,
    })
    .expect(201);
  sandbox = created.body as CreatedSite;
  expect(created.body.sandbox).toBe(true);
  const key = async (environment: string) =>
    (
      await t.request
        .post('/api/v1/partners/api-keys')
        .set(auth(partner.token))
        .send({ environment })
        .expect(201)
    ).body.api_key as string;
  keys = { sandbox: await key('sandbox'), live: await key('live') };

  const gb = await verifiedUser(t, { location_country: 'GB', proven_min_age: 18 });
  const fr = await verifiedUser(t, { location_country: 'FR', proven_min_age: 18 });
  const liveFlow = await fullFlow(t, live, gb);
  const sandboxFlow = await fullFlow(t, sandbox, fr);
  tokens = { live: liveFlow.tokens.access_token, sandbox: sandboxFlow.tokens.access_token };
  // A second sandbox grant, revoked: a revocation at a sandbox site.
  await fullFlow(t, sandbox, gb);
  const revoked = await t.db.models.OAuthAuthorization.findOne({
    where: { user_id: gb.user.id, site_id: sandbox.id },
  });
  expect(await t.services.grants.revoke(revoked!.id, 'user_revoked')).toBe(true);

  // Live: 3 approved and 1 rejected (GB users). Sandbox: 2 approved and 1 failed (FR users).
  for (const status of ['approved', 'approved', 'approved', 'rejected'])
    await seedVerification(gb.user.id, live, status, false);
  for (const status of ['approved', 'approved', 'failed'])
    await seedVerification(fr.user.id, sandbox, status, true);
  // Token issuance is audited after the answer.
  await eventually(async () => {
    const issued = await t.db.models.AuditLog.count({
      where: { partner_id: partner.partner.id, event_type: 'oauth.token_issued' },
    });
    return issued >= 3;
  });
});
afterAll(async () => {
  await t?.close();
});

describe('POST /partners/validate-token with a sandbox key', () => {
  it("answers for sandbox sites' tokens and calls a live site's token inactive", async () => {
    const sandboxAnswer = await t.request
      .post('/api/v1/partners/validate-token')
      .set('X-API-Key', keys.sandbox)
      .send({ token: tokens.sandbox })
      .expect(200);
    expect(sandboxAnswer.body).toMatchObject({
      active: true,
      site_id: sandbox.id,
      client_id: sandbox.client_id,
    });
    const liveAnswer = await t.request
      .post('/api/v1/partners/validate-token')
      .set('X-API-Key', keys.sandbox)
      .send({ token: tokens.live })
      .expect(200);
    expect(liveAnswer.body).toEqual({ active: false });
  });

  it('leaves live keys and portal sessions every token of the partner', async () => {
    for (const token of [tokens.live, tokens.sandbox]) {
      const byKey = await t.request
        .post('/api/v1/partners/validate-token')
        .set('X-API-Key', keys.live)
        .send({ token })
        .expect(200);
      expect(byKey.body.active).toBe(true);
      const bySession = await t.request
        .post('/api/v1/partners/validate-token')
        .set(auth(partner.token))
        .send({ token })
        .expect(200);
      expect(bySession.body.active).toBe(true);
    }
  });
});

describe('GET /partners/stats with a sandbox key', () => {
  it("counts only the sandbox sites: their verifications, tokens, revocations and users' countries", async () => {
    const { body } = await t.request.get('/api/v1/partners/stats').set('X-API-Key', keys.sandbox).expect(200);
    expect(body).toMatchObject({
      total_sites: 1,
      total_verifications: 3,
      successful_verifications: 2,
      failed_verifications: 1,
      success_rate: 66.7,
      monthly_usage: { current_month: 3, previous_month: 0 },
      trend: { current_period: 3, previous_period: 0, change_percent: null },
      active_tokens: 1,
      revoked_tokens: 1,
      avg_response_time_ms: null,
      sandbox_verifications: 3,
      top_countries: [{ country: 'FR', verifications: 3, percentage: 100 }],
    });
    expect(body.recent_verifications).toHaveLength(4);
    for (const item of body.recent_verifications as Array<{ site_id: string; sandbox: boolean }>) {
      expect(item).toMatchObject({ site_id: sandbox.id, sandbox: true });
    }
    expect(
      (body.recent_verifications as Array<{ type: string }>).filter(
        (item) => item.type === 'token_revocation',
      ),
    ).toHaveLength(1);
  });

  it('gives live keys and portal sessions the live figures with sandbox counted apart', async () => {
    for (const request of [
      t.request.get('/api/v1/partners/stats').set('X-API-Key', keys.live),
      t.request.get('/api/v1/partners/stats').set(auth(partner.token)),
    ]) {
      const { body } = await request.expect(200);
      expect(body).toMatchObject({
        total_sites: 2,
        total_verifications: 4,
        successful_verifications: 3,
        failed_verifications: 1,
        active_tokens: 2,
        revoked_tokens: 1,
        sandbox_verifications: 3,
        top_countries: [{ country: 'GB', verifications: 4, percentage: 100 }],
      });
    }
  });
});

describe('GET /partners/audit-logs with a sandbox key', () => {
  it('lists only the entries about sandbox sites, with filters and paging', async () => {
    const all = await t.request.get('/api/v1/partners/audit-logs').set('X-API-Key', keys.sandbox).expect(200);
    const entries = all.body.audit_logs as Array<{ event: string; details: { site_id?: string } }>;
    expect(all.body.total_count).toBe(entries.length);
    expect(entries.every((entry) => entry.details.site_id === sandbox.id)).toBe(true);
    expect(new Set(entries.map((entry) => entry.event))).toEqual(
      new Set(['partner.site_created', 'oauth.consent_granted', 'oauth.token_issued', 'oauth.token_revoked']),
    );
    const issued = await t.request
      .get('/api/v1/partners/audit-logs?event=oauth.token_issued')
      .set('X-API-Key', keys.sandbox)
      .expect(200);
    expect(issued.body.total_count).toBe(2);
    const page = await t.request
      .get('/api/v1/partners/audit-logs?skip=1&limit=2')
      .set('X-API-Key', keys.sandbox)
      .expect(200);
    expect(page.body.audit_logs.map((entry: { id: string }) => entry.id)).toEqual(
      entries.slice(1, 3).map((entry) => (entry as unknown as { id: string }).id),
    );
  });

  it('leaves live keys and portal sessions every entry of the partner', async () => {
    for (const request of [
      t.request.get('/api/v1/partners/audit-logs').set('X-API-Key', keys.live),
      t.request.get('/api/v1/partners/audit-logs').set(auth(partner.token)),
    ]) {
      const { body } = await request.expect(200);
      const entries = body.audit_logs as Array<{ event: string; details: { site_id?: string } }>;
      const sites = new Set(entries.map((entry) => entry.details.site_id));
      expect(sites.has(live.id)).toBe(true);
      expect(sites.has(sandbox.id)).toBe(true);
      expect(entries.map((entry) => entry.event)).toContain('partner.api_key_created');
    }
  });
});

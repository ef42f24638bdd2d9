import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { createTestApp, signUp, type TestApp } from './helpers';
import {
  Browser,
  createSite,
  pkce,
  registerPartner,
  relyingParty,
  uidFrom,
  verifiedUser,
} from './oidc-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
});
afterAll(async () => {
  await t?.close();
});

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const DAY = 86_400_000;

async function seed(
  partnerId: string,
  siteId: string | null,
  userId: string,
  rows: Array<{ status: string; daysAgo?: number; at?: Date; sandbox?: boolean }>,
) {
  const now = t.clock.now().getTime();
  for (const row of rows) {
    const at = row.at ?? new Date(now - (row.daysAgo ?? 0) * DAY);
    await t.db.models.Verification.create({
      user_id: userId,
      verification_type: 'age',
      verification_method: 'credit_card',
      status: row.status as 'approved',
      confidence_score: null,
      age_threshold: 18,
      message: 'seeded',
      document_analysis: null,
      subject_fingerprint: null,
      partner_id: partnerId,
      site_id: siteId,
      sandbox: row.sandbox ?? false,
      reviewed_at: null,
      reviewed_by: null,
      expires_at: null,
      created_at: at,
      updated_at: at,
    });
  }
}

describe('GET /partners/stats', () => {
  it('computes the figures from seeded verifications with known answers', async () => {
    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token);
    await createSite(t, partner.token, {
      site_name: 'Second',
      redirect_uris: ['https://shop.example.com/b'],
    });
    const gb = await verifiedUser(t, { location_country: 'GB' });
    const fr = await verifiedUser(t, { location_country: 'FR' });
    const nowhere = await signUp(t);
    const now = t.clock.now();
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1, 12));
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15, 12));
    // This month: 3 approved + 1 rejected (GB), 1 failed (FR), 1 pending (no country); 2 sandbox (never counted).
    await seed(partner.partner.id, site.id, gb.user.id, [
      { status: 'approved', at: monthStart },
      { status: 'approved', at: now },
      { status: 'approved', at: now },
      { status: 'rejected', at: now },
    ]);
    await seed(partner.partner.id, site.id, fr.user.id, [{ status: 'failed', at: now }]);
    await seed(partner.partner.id, null, nowhere.user.id, [{ status: 'pending', at: now }]);
    await seed(partner.partner.id, site.id, gb.user.id, [
      { status: 'approved', at: now, sandbox: true },
      { status: 'rejected', at: now, sandbox: true },
    ]);
    // Last month: 2 approved (FR).
    await seed(partner.partner.id, site.id, fr.user.id, [
      { status: 'approved', at: lastMonth },
      { status: 'approved', at: lastMonth },
    ]);
    // Someone else's verifications never show.
    const other = await registerPartner(t);
    await seed(other.partner.id, null, gb.user.id, [{ status: 'approved' }, { status: 'approved' }]);

    const { body } = await t.request.get('/api/v1/partners/stats').set(auth(partner.token)).expect(200);
    expect(body).toMatchObject({
      total_sites: 2,
      total_verifications: 8,
      successful_verifications: 5,
      failed_verifications: 2,
      success_rate: 71.4,
      monthly_usage: { current_month: 6, previous_month: 2 },
      plan: 'starter',
      active_tokens: 0,
      revoked_tokens: 0,
      avg_response_time_ms: null,
      sandbox_verifications: 2,
    });
    expect(body.top_countries).toEqual([
      { country: 'GB', verifications: 4, percentage: 57.1 },
      { country: 'FR', verifications: 3, percentage: 42.9 },
    ]);
    expect(body.recent_verifications).toHaveLength(10);
    expect(body.recent_verifications[0]).toMatchObject({
      type: 'verification',
      user: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(JSON.stringify(body)).not.toContain(gb.user.id);

    const sites = await t.request.get('/api/v1/partners/sites').set(auth(partner.token)).expect(200);
    const card = sites.body.sites.find((row: { id: string }) => row.id === site.id);
    expect(card.verification_count).toBe(9);
  });

  it('follows a status change (manual review) and a late attribution in the roll-ups', async () => {
    const partner = await registerPartner(t);
    const user = await verifiedUser(t, { location_country: 'DE' });
    await seed(partner.partner.id, null, user.user.id, [{ status: 'pending' }]);
    const row = await t.db.models.Verification.findOne({ where: { partner_id: partner.partner.id } });
    await row!.update({ status: 'approved' });
    let stats = await t.services.partnerStats.forPartner(partner.partner.id);
    expect(stats).toMatchObject({
      total_verifications: 1,
      successful_verifications: 1,
      failed_verifications: 0,
    });
    await row!.update({ status: 'rejected' });
    stats = await t.services.partnerStats.forPartner(partner.partner.id);
    expect(stats).toMatchObject({
      total_verifications: 1,
      successful_verifications: 0,
      failed_verifications: 1,
    });
    // A row attributed afterwards is counted once, with its user's country.
    await seed(partner.partner.id, null, user.user.id, [{ status: 'approved' }]);
    const late = await t.db.models.Verification.create({
      user_id: user.user.id,
      verification_type: 'age',
      verification_method: 'document',
      status: 'approved',
      confidence_score: 0.9,
      age_threshold: 18,
      message: 'x',
      document_analysis: null,
      subject_fingerprint: null,
      partner_id: null,
      site_id: null,
      reviewed_at: null,
      reviewed_by: null,
      expires_at: null,
    });
    await late.update({ partner_id: partner.partner.id });
    stats = await t.services.partnerStats.forPartner(partner.partner.id);
    expect(stats).toMatchObject({ total_verifications: 3, successful_verifications: 2 });
    expect(stats.top_countries).toEqual([{ country: 'DE', verifications: 3, percentage: 100 }]);
  });

  it('reports a real 30-day trend against the 30 days before', async () => {
    const partner = await registerPartner(t);
    const user = await signUp(t);
    await seed(partner.partner.id, null, user.user.id, [
      { status: 'approved', daysAgo: 1 },
      { status: 'approved', daysAgo: 10 },
      { status: 'approved', daysAgo: 29 },
      { status: 'approved', daysAgo: 35 },
      { status: 'approved', daysAgo: 59 },
      { status: 'approved', daysAgo: 61 },
    ]);
    const stats = await t.services.partnerStats.forPartner(partner.partner.id);
    expect(stats.trend).toEqual({ current_period: 3, previous_period: 2, change_percent: 50 });
  });

  it('answers an API key with its own partner only; refuses user tokens, bad keys and no credentials', async () => {
    const owner = await registerPartner(t);
    const other = await registerPartner(t);
    const user = await signUp(t);
    await seed(owner.partner.id, null, user.user.id, [{ status: 'approved' }]);
    const ownerLive = await t.request
      .post('/api/v1/partners/api-keys')
      .set(auth(owner.token))
      .send({ environment: 'live' })
      .expect(201);
    const ownerSandbox = await t.request
      .post('/api/v1/partners/api-keys')
      .set(auth(owner.token))
      .send({ environment: 'sandbox' })
      .expect(201);
    const otherKey = await t.request
      .post('/api/v1/partners/api-keys')
      .set(auth(other.token))
      .send({ environment: 'live' })
      .expect(201);
    for (const key of [ownerLive.body.api_key, ownerSandbox.body.api_key]) {
      const stats = await t.request.get('/api/v1/partners/stats').set('X-API-Key', key).expect(200);
      expect(stats.body.total_verifications).toBe(1);
    }
    const theirs = await t.request.get('/api/v1/partners/stats').set('X-API-Key', otherKey.body.api_key);
    expect(theirs.status).toBe(200);
    expect(theirs.body.total_verifications).toBe(0);
    const otherSession = await t.request.get('/api/v1/partners/stats').set(auth(other.token)).expect(200);
    expect(otherSession.body.total_verifications).toBe(0);
    await t.request.get('/api/v1/partners/stats').set(auth(user.token)).expect(401);
    await t.request.get('/api/v1/partners/stats').set('X-API-Key', 'atk_live_forged').expect(401);
    await t.request.get('/api/v1/partners/stats').expect(401);
    // Calls made with API keys are measured: the dashboard's response time is no longer a placeholder.
    const measured = await t.services.partnerStats.forPartner(owner.partner.id);
    expect(measured.avg_response_time_ms).toEqual(expect.any(Number));
    expect(measured.avg_response_time_ms).toBeGreaterThanOrEqual(0);
  });
});

describe('attribution from the sign-in flow', () => {
  it('counts a verification made from the consent screen for the site that asked', async () => {
    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token);
    const user = await verifiedUser(t, { location_country: 'GB' });
    const config = await relyingParty(t, site);
    const { challenge } = pkce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: site.redirect_uris[0] as string,
      scope: 'openid basic_info AGE_18',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: client.randomState(),
    });
    const browser = new Browser();
    let location = url.href;
    for (let hop = 0; hop < 8 && !location.includes('/oauth/consent'); hop += 1) {
      if (location.includes('/oauth/login')) {
        const login = await browser.json(
          `${t.baseUrl}/api/v1/oauth/interactions/${uidFrom(location)}/login`,
          'POST',
          { email: user.email, password: user.password },
        );
        location = String(login.body.redirect_to);
        continue;
      }
      const response = await browser.fetch(location);
      location = new URL(response.headers.get('location') as string, location).href;
    }
    const uid = uidFrom(location);
    // Someone else's interaction uid is ignored: the verification then counts for no partner.
    const stranger = await signUp(t);
    const card = {
      card_number: '4242 4242 4242 4242',
      cardholder_name: 'Test User',
      expiry_month: '12',
      expiry_year: String(new Date().getUTCFullYear() + 2),
      cvv: '123',
    };
    await t.request
      .post('/api/v1/users/verify/credit-card')
      .set(auth(stranger.token))
      .set('X-Attestly-Interaction', uid)
      .send(card)
      .expect(201);
    const made = await t.request
      .post('/api/v1/users/verify/credit-card')
      .set(auth(user.token))
      .set('X-Attestly-Interaction', uid)
      .send(card)
      .expect(201);
    const row = await t.db.models.Verification.findByPk(made.body.verification_id);
    expect(row).toMatchObject({ partner_id: partner.partner.id, site_id: site.id, sandbox: false });
    const strangers = await t.db.models.Verification.findAll({ where: { user_id: stranger.user.id } });
    expect(strangers.map((r) => r.partner_id)).toEqual([null]);
    const stats = await t.request.get('/api/v1/partners/stats').set(auth(partner.token)).expect(200);
    expect(stats.body.total_verifications).toBe(1);
    expect(stats.body.top_countries).toEqual([{ country: 'GB', verifications: 1, percentage: 100 }]);
    const logs = await t.request
      .get('/api/v1/partners/audit-logs?search=verification')
      .set(auth(partner.token))
      .expect(200);
    expect(logs.body.audit_logs[0]).toMatchObject({
      event: expect.stringMatching(/^verification\./),
      user_id: stats.body.recent_verifications[0].user,
      details: expect.objectContaining({ site_id: site.id }),
    });
  });
});

describe('GET /partners/audit-logs', () => {
  it("lists the partner's own entries with search, filters and paging, never another partner's", async () => {
    const partner = await registerPartner(t);
    const other = await registerPartner(t);
    await createSite(t, partner.token);
    await createSite(t, other.token);
    await t.request.post('/api/v1/partners/api-keys').set(auth(partner.token)).send({ environment: 'live' });
    const all = await t.request.get('/api/v1/partners/audit-logs').set(auth(partner.token)).expect(200);
    const events = all.body.audit_logs.map((row: { event: string }) => row.event);
    expect(events).toEqual([
      'partner.api_key_created',
      'partner.site_created',
      'partner.login_succeeded',
      'partner.email_verified',
      'partner.email_verification_sent',
      'partner.registered',
    ]);
    expect(all.body.total_count).toBe(6);
    const page = await t.request
      .get('/api/v1/partners/audit-logs?skip=1&limit=2')
      .set(auth(partner.token))
      .expect(200);
    expect(page.body.audit_logs.map((row: { event: string }) => row.event)).toEqual(events.slice(1, 3));
    const searched = await t.request
      .get('/api/v1/partners/audit-logs?search=site')
      .set(auth(partner.token))
      .expect(200);
    expect(searched.body.total_count).toBe(1);
    const filtered = await t.request
      .get('/api/v1/partners/audit-logs?event=partner.registered')
      .set(auth(partner.token))
      .expect(200);
    expect(filtered.body.total_count).toBe(1);
    const future = new Date(t.clock.now().getTime() + DAY).toISOString();
    const none = await t.request
      .get(`/api/v1/partners/audit-logs?start=${future}&end=${future}`)
      .set(auth(partner.token))
      .expect(200);
    expect(none.body.total_count).toBe(0);
    const bad = await t.request
      .get('/api/v1/partners/audit-logs?start=yesterday&severity=fatal')
      .set(auth(partner.token))
      .expect(422);
    expect(bad.body.errors.map((error: { path: string }) => error.path).sort()).toEqual([
      'severity',
      'start',
    ]);
    await t.request.get('/api/v1/partners/audit-logs').expect(401);
  });
});

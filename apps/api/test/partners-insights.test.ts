import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { pairwiseSubject } from '../src/oidc/account';
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

/** Issue 25 item 6: what a partner's figures and audit log count beyond its own verification flows. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
});
afterAll(async () => {
  await t?.close();
});

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const DAY = 86_400_000;

async function grant(
  partnerId: string,
  site: { id: string; client_id: string },
  userId: string,
  scopes: string[],
  ageThreshold: number | null,
) {
  const now = t.clock.now();
  await t.db.models.OAuthAuthorization.create({
    id: `insights-${site.id}-${userId}`,
    user_id: userId,
    partner_id: partnerId,
    site_id: site.id,
    client_id: site.client_id,
    scopes,
    age_threshold: ageThreshold,
    jurisdiction: null,
    created_at: now,
    updated_at: now,
    expires_at: new Date(now.getTime() + 86_400_000),
    last_used_at: null,
    revoked_at: null,
    revoked_reason: null,
  } as never);
}

async function approvedVerification(userId: string, partnerId: string | null, siteId: string | null) {
  const now = t.clock.now();
  await t.db.models.Verification.create({
    user_id: userId,
    verification_type: 'age',
    verification_method: 'document',
    status: 'approved',
    confidence_score: 0.9,
    age_threshold: 18,
    message: 'seeded',
    document_analysis: null,
    subject_fingerprint: null,
    partner_id: partnerId,
    site_id: siteId,
    sandbox: false,
    reviewed_at: null,
    reviewed_by: null,
    expires_at: null,
    created_at: now,
    updated_at: now,
  } as never);
}

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
    // A location check (from a British address) stands for any method the consent screen offers.
    await t.db.models.User.update({ country: 'GB' }, { where: { id: [user.user.id, stranger.user.id] } });
    await t.request
      .post('/api/v1/users/verify/location')
      .set(auth(stranger.token))
      .set('X-Attestly-Interaction', uid)
      .set('X-Forwarded-For', '81.2.69.160')
      .expect(201);
    const made = await t.request
      .post('/api/v1/users/verify/location')
      .set(auth(user.token))
      .set('X-Attestly-Interaction', uid)
      .set('X-Forwarded-For', '81.2.69.160')
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

describe('partner statistics count users already verified when they consented', () => {
  it('adds each such user once to the totals, and never one verified in the partner’s own flow', async () => {
    const partner = await registerPartner(t);
    const shop = await createSite(t, partner.token);
    const forum = await createSite(t, partner.token, {
      site_name: 'Forum',
      redirect_uris: ['https://shop.example.com/forum'],
    });
    const before = await t.services.partnerStats.forPartner(partner.partner.id);
    expect(before).toMatchObject({ total_verifications: 0, verified_at_consent: 0 });

    // Verified elsewhere (no partner), then shared the age with both sites: one user.
    const alreadyVerified = await verifiedUser(t, { proven_min_age: 21 });
    await approvedVerification(alreadyVerified.user.id, null, null);
    await grant(partner.partner.id, shop, alreadyVerified.user.id, ['basic_info', 'AGE_18'], 18);
    await grant(partner.partner.id, forum, alreadyVerified.user.id, ['basic_info', 'AGE_21'], 21);
    // Verified through this partner's flow: already counted by its verification row.
    const verifiedHere = await verifiedUser(t, { proven_min_age: 18 });
    await approvedVerification(verifiedHere.user.id, partner.partner.id, shop.id);
    await grant(partner.partner.id, shop, verifiedHere.user.id, ['basic_info', 'AGE_18'], 18);
    // Shared nothing proven: not a verified user for this partner.
    const nameOnly = await verifiedUser(t);
    await grant(partner.partner.id, shop, nameOnly.user.id, ['basic_info'], null);
    // Shared a verified location.
    const located = await verifiedUser(t, { location_country: 'GB' });
    await grant(partner.partner.id, forum, located.user.id, ['basic_info', 'location_verification'], null);

    const stats = await t.services.partnerStats.forPartner(partner.partner.id);
    expect(stats).toMatchObject({
      verified_at_consent: 2,
      total_verifications: 3,
      successful_verifications: 3,
      failed_verifications: 0,
      success_rate: 100,
      monthly_usage: { current_month: 3 },
      trend: { current_period: 3 },
    });
    const other = await registerPartner(t);
    expect(await t.services.partnerStats.forPartner(other.partner.id)).toMatchObject({
      verified_at_consent: 0,
      total_verifications: 0,
    });
    const { body } = await t.request.get('/api/v1/partners/stats').set(auth(partner.token)).expect(200);
    expect(body.verified_at_consent).toBe(2);
    // The figures follow a new consent, and a verification through the partner's flow, at once (no stale reuse).
    const newcomer = await verifiedUser(t, { proven_min_age: 18 });
    await grant(partner.partner.id, shop, newcomer.user.id, ['basic_info', 'AGE_18'], 18);
    expect((await t.services.partnerStats.forPartner(partner.partner.id)).verified_at_consent).toBe(3);
    await approvedVerification(located.user.id, partner.partner.id, forum.id);
    expect(await t.services.partnerStats.forPartner(partner.partner.id)).toMatchObject({
      verified_at_consent: 2,
      total_verifications: 4,
    });
  });
});

describe('partner audit log search by user', () => {
  it('finds the entries of the user whose pairwise subject starts with the search, on the server', async () => {
    const partner = await registerPartner(t);
    const other = await registerPartner(t);
    const alice = await verifiedUser(t);
    const bob = await verifiedUser(t);
    for (const [userId, partnerId] of [
      [alice.user.id, partner.partner.id],
      [alice.user.id, partner.partner.id],
      [bob.user.id, partner.partner.id],
      [alice.user.id, other.partner.id],
    ] as const) {
      await t.services.audit.record({ event: 'oauth.token_issued', userId, partnerId });
    }
    const subject = pairwiseSubject(t.config.masterKey, partner.partner.id, alice.user.id);
    for (const search of [subject, subject.slice(0, 12), subject.slice(0, 12).toUpperCase()]) {
      const found = await t.request
        .get(`/api/v1/partners/audit-logs?search=${search}&limit=1`)
        .set(auth(partner.token))
        .expect(200);
      // Paged on the server: the count covers every match, not the page's.
      expect(found.body.total_count).toBe(2);
      expect(found.body.audit_logs[0].user_id).toBe(subject);
    }
    // Alice under the other partner's subject is another person to this partner.
    const foreign = pairwiseSubject(t.config.masterKey, other.partner.id, alice.user.id);
    const none = await t.request
      .get(`/api/v1/partners/audit-logs?search=${foreign.slice(0, 16)}`)
      .set(auth(partner.token))
      .expect(200);
    expect(none.body.total_count).toBe(0);
  });
});

describe('partner API calls in the audit log', () => {
  it('writes partner.api_key_used once per hour of use and api.rate_limit_exceeded once per refused window', async () => {
    const partner = await registerPartner(t);
    const created = await t.request
      .post('/api/v1/partners/api-keys')
      .set(auth(partner.token))
      .send({ environment: 'live' })
      .expect(201);
    const key = { 'X-API-Key': created.body.api_key as string };
    const events = async (event: string) =>
      (
        await t.request
          .get(`/api/v1/partners/audit-logs?event=${event}&limit=100`)
          .set(auth(partner.token))
          .expect(200)
      ).body.audit_logs as Array<{ details: Record<string, unknown>; severity: string }>;

    // The free plan allows 60 calls a minute; the clock stands still, so all fall in one window.
    const statuses: number[] = [];
    for (let call = 0; call < 63; call += 1) {
      statuses.push((await t.request.get('/api/v1/partners/stats').set(key)).status);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(60);
    expect(statuses.slice(60)).toEqual([429, 429, 429]);
    const exceeded = await events('api.rate_limit_exceeded');
    expect(exceeded).toHaveLength(1);
    expect(exceeded[0]).toMatchObject({
      severity: 'warning',
      details: { endpoint: 'GET /api/v1/partners/stats', plan: 'free', limit_per_minute: 60 },
    });
    const used = await events('partner.api_key_used');
    expect(used).toHaveLength(1);
    expect(used[0]?.details).toMatchObject({ api_key_id: created.body.id, previous_use: null });

    // Ten minutes on: a new window, still the same hour of use.
    t.clock.advance(10 * 60_000);
    await t.request.get('/api/v1/partners/stats').set(key).expect(200);
    expect(await events('partner.api_key_used')).toHaveLength(1);
    // Two hours unused: the next call is a new use.
    t.clock.advance(2 * 60 * 60_000);
    await t.request.get('/api/v1/partners/stats').set(key).expect(200);
    expect(await events('partner.api_key_used')).toHaveLength(2);
    expect(await events('api.rate_limit_exceeded')).toHaveLength(1);
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

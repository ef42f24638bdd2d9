import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from './helpers';
import { createSite, registerPartner, verifiedUser } from './oidc-helpers';

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
      plan: 'free',
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

  it('keeps the roll-ups equal to a recount of the verifications after concurrent writes', async () => {
    const partner = await registerPartner(t);
    const siteA = await createSite(t, partner.token, { site_name: 'Recount A' });
    const siteB = await createSite(t, partner.token, {
      site_name: 'Recount B',
      redirect_uris: ['https://b.example.com/cb'],
    });
    const users = await Promise.all(
      ['GB', 'FR', 'DE'].map((country) => verifiedUser(t, { location_country: country })),
    );
    const statuses = ['approved', 'rejected', 'failed', 'pending'] as const;
    const sites = [siteA.id, siteB.id, null];
    const now = t.clock.now().getTime();
    const make = (i: number) =>
      t.db.models.Verification.create({
        user_id: users[i % users.length]!.user.id,
        verification_type: 'age',
        verification_method: 'credit_card',
        status: statuses[i % statuses.length]!,
        confidence_score: null,
        age_threshold: 18,
        message: 'concurrent',
        document_analysis: null,
        subject_fingerprint: null,
        // Every fifth early row is attributed later (partner_id set by an update); sandbox rows come from sandbox
        // sites and keys, so they are attributed from the start.
        partner_id: i < 60 && i % 5 === 4 ? null : partner.partner.id,
        site_id: sites[i % sites.length]!,
        sandbox: i % 7 === 6 && !(i < 60 && i % 5 === 4),
        reviewed_at: null,
        reviewed_by: null,
        expires_at: null,
        created_at: new Date(now - (i % 3) * DAY),
        updated_at: new Date(now),
      });
    // Many writers at once (several pool connections on PostgreSQL): the same few (partner, site, day) rows and
    // country rows are upserted by all of them together.
    const rows = await Promise.all(Array.from({ length: 60 }, (_, i) => make(i)));
    // Then, again all together: reviews of the pending rows, late attributions, and more new rows.
    await Promise.all([
      ...rows
        .filter((row) => row.status === 'pending')
        .map((row, i) => row.update({ status: i % 2 ? 'approved' : 'rejected' })),
      ...rows.filter((row) => !row.partner_id).map((row) => row.update({ partner_id: partner.partner.id })),
      ...Array.from({ length: 30 }, (_, i) => make(60 + i)),
    ]);

    const all = await t.db.models.Verification.findAll({ where: { partner_id: partner.partner.id } });
    expect(all).toHaveLength(90);
    const country = new Map(users.map((u, i) => [u.user.id, ['GB', 'FR', 'DE'][i]!]));
    const daily = new Map<
      string,
      { verifications: number; succeeded: number; failed: number; sandbox: number }
    >();
    const countries = new Map<string, number>();
    for (const row of all) {
      const key = `${row.site_id ?? ''}|${row.created_at.toISOString().slice(0, 10)}`;
      const entry = daily.get(key) ?? { verifications: 0, succeeded: 0, failed: 0, sandbox: 0 };
      if (row.sandbox) entry.sandbox += 1;
      else {
        entry.verifications += 1;
        if (row.status === 'approved') entry.succeeded += 1;
        if (row.status === 'rejected' || row.status === 'failed') entry.failed += 1;
        const code = country.get(row.user_id)!;
        countries.set(code, (countries.get(code) ?? 0) + 1);
      }
      daily.set(key, entry);
    }
    const rolled = await t.db.read<Record<string, string | number>>(
      `SELECT site_id, day, verifications, succeeded, failed, sandbox FROM partner_stats_daily
       WHERE partner_id = :partnerId`,
      { partnerId: partner.partner.id },
    );
    expect(
      new Map(
        rolled.map((row) => [
          `${row.site_id}|${row.day}`,
          {
            verifications: Number(row.verifications),
            succeeded: Number(row.succeeded),
            failed: Number(row.failed),
            sandbox: Number(row.sandbox),
          },
        ]),
      ),
    ).toEqual(daily);
    const rolledCountries = await t.db.read<{ country: string; verifications: number | string }>(
      'SELECT country, verifications FROM partner_stats_countries WHERE partner_id = :partnerId',
      { partnerId: partner.partner.id },
    );
    expect(new Map(rolledCountries.map((row) => [row.country, Number(row.verifications)]))).toEqual(
      countries,
    );
    const stats = await t.services.partnerStats.forPartner(partner.partner.id);
    const live = all.filter((row) => !row.sandbox);
    expect(stats).toMatchObject({
      total_verifications: live.length,
      successful_verifications: live.filter((row) => row.status === 'approved').length,
      sandbox_verifications: all.length - live.length,
    });
  });

  it('counts active and revoked tokens and lists revocations among the latest events', async () => {
    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token);
    const user = await verifiedUser(t, { location_country: 'GB', location_state: 'London' });
    const now = t.clock.now().getTime();
    const grant = (n: number, expiresIn: number, revokedAgo: number | null) =>
      t.db.models.OAuthAuthorization.create({
        id: `stats-grant-${partner.partner.id}-${n}`,
        user_id: user.user.id,
        partner_id: partner.partner.id,
        site_id: site.id,
        client_id: site.client_id,
        scopes: ['basic_info'],
        age_threshold: null,
        jurisdiction: null,
        created_at: new Date(now - 10 * DAY),
        updated_at: new Date(now - 10 * DAY),
        expires_at: new Date(now + expiresIn),
        last_used_at: null,
        revoked_at: revokedAgo === null ? null : new Date(now - revokedAgo),
        revoked_reason: revokedAgo === null ? null : 'user_revoked',
      } as never);
    // Two active, one expired, three revoked (one of them also expired).
    await grant(1, DAY, null);
    await grant(2, 2 * DAY, null);
    await grant(3, -DAY, null);
    await grant(4, DAY, 3_000);
    await grant(5, DAY, 1_000);
    await grant(6, -DAY, 2 * DAY);
    await seed(partner.partner.id, site.id, user.user.id, [
      { status: 'approved', at: new Date(now - 2_000) },
    ]);
    const stats = await t.services.partnerStats.forPartner(partner.partner.id);
    expect(stats).toMatchObject({ active_tokens: 2, revoked_tokens: 3, total_verifications: 1 });
    expect(
      stats.recent_verifications.map((item) => [
        item.type,
        item.id,
        item.timestamp,
        item.location,
        item.sandbox,
      ]),
    ).toEqual([
      [
        'token_revocation',
        `stats-grant-${partner.partner.id}-5`,
        new Date(now - 1_000).toISOString(),
        'London, GB',
        false,
      ],
      ['verification', expect.any(String), new Date(now - 2_000).toISOString(), 'London, GB', false],
      [
        'token_revocation',
        `stats-grant-${partner.partner.id}-4`,
        new Date(now - 3_000).toISOString(),
        'London, GB',
        false,
      ],
      [
        'token_revocation',
        `stats-grant-${partner.partner.id}-6`,
        new Date(now - 2 * DAY).toISOString(),
        'London, GB',
        false,
      ],
    ]);
    expect(stats.recent_verifications[1]).toMatchObject({
      status: 'success',
      verification_type: 'age',
      site_id: site.id,
    });
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
    const liveStats = await t.request
      .get('/api/v1/partners/stats')
      .set('X-API-Key', ownerLive.body.api_key)
      .expect(200);
    expect(liveStats.body.total_verifications).toBe(1);
    // A sandbox key sees the sandbox sites' figures only (partners-sandbox-keys.test.ts): not this live one.
    const sandboxStats = await t.request
      .get('/api/v1/partners/stats')
      .set('X-API-Key', ownerSandbox.body.api_key)
      .expect(200);
    expect(sandboxStats.body.total_verifications).toBe(0);
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

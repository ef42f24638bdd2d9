import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../src/errors';
import { planRateLimit } from '../src/modules/partners/billing/plan-rate-limit';
import { createVerificationService } from '../src/modules/users/verification/service';
import { createTestApp, signUp, type TestApp } from './helpers';
import { registerPartner } from './oidc-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // The middle of a month (UTC), so that the test knows when the period ends.
  const now = t.clock.now();
  const mid = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 15, 12));
  t.clock.advance(mid.getTime() - now.getTime());
});
afterAll(async () => {
  await t?.close();
});

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

async function caught(promise: Promise<unknown>): Promise<AppError | null> {
  try {
    await promise;
    return null;
  } catch (error) {
    return error as AppError;
  }
}

describe('plans without Stripe', () => {
  it('says billing is off, refuses checkout and the portal, and lets operators assign plans', async () => {
    const partner = await registerPartner(t);
    const usage = await t.request
      .get('/api/v1/partners/subscription/usage')
      .set(auth(partner.token))
      .expect(200);
    // New partners start on Free; nothing is charged without Stripe, so no price and no billing date.
    expect(usage.body).toMatchObject({
      billing_enabled: false,
      can_manage: false,
      current_plan: { id: 'free', name: 'Free', price: null },
      next_billing_date: null,
    });
    const plans = await t.request.get('/api/v1/partners/subscription/plans').expect(200);
    expect(plans.body.data.plans).toHaveLength(4);
    expect(plans.body.data.plans.map((plan: { price: unknown }) => plan.price)).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(plans.body.data.plans[3]).toMatchObject({ id: 'scale', verifications: 100000 });
    const checkout = await t.request
      .post('/api/v1/partners/subscription/checkout-session?plan_id=growth')
      .set(auth(partner.token))
      .expect(503);
    expect(checkout.body.detail).toBe(
      'Online billing is not available on this server. Contact your administrator to change your plan.',
    );
    await t.request.post('/api/v1/partners/subscription/portal-session').set(auth(partner.token)).expect(503);
    const webhook = await t.request
      .post('/api/v1/stripe/webhook')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', 't=1,v1=00')
      .send('{}');
    expect(webhook.status).toBe(503);

    expect(await t.services.billing.setPartnerPlan(partner.partner.id, 'scale', { source: 'cli' })).toBe(
      true,
    );
    expect(await t.services.billing.setPartnerPlan(partner.partner.id, 'scale')).toBe(false);
    const error = await caught(t.services.billing.setPartnerPlan(partner.partner.id, 'platinum'));
    expect(error).toMatchObject({ status: 422, detail: 'Unknown plan' });
    const after = await t.request
      .get('/api/v1/partners/subscription/usage')
      .set(auth(partner.token))
      .expect(200);
    expect(after.body).toMatchObject({
      current_plan: { id: 'scale', name: 'Scale', price: null },
      next_billing_date: null,
      usage: { verifications_limit: 100000 },
    });
    const audits = await t.db.models.AuditLog.count({
      where: { partner_id: partner.partner.id, event_type: 'partner.plan_changed' },
    });
    expect(audits).toBe(1);
  });
});

describe('monthly quota', () => {
  it('counts racing verifications atomically and answers 429 exactly at the quota until the month ends', async () => {
    const partner = await registerPartner(t);
    await t.services.billing.setPartnerPlan(partner.partner.id, 'free');
    const results = await Promise.allSettled(
      Array.from({ length: 130 }, () => t.services.billing.recordUsage(partner.partner.id)),
    );
    const passed = results.filter((result) => result.status === 'fulfilled');
    const refused = results.filter((result) => result.status === 'rejected') as PromiseRejectedResult[];
    expect(passed).toHaveLength(100);
    expect(refused).toHaveLength(30);
    expect(refused.every((result) => (result.reason as AppError).status === 429)).toBe(true);

    const error = await caught(t.services.billing.checkQuota(partner.partner.id));
    expect(error?.status).toBe(429);
    expect(error?.code).toBe('billing.quota_exceeded');
    expect(error?.detail).toMatch(
      /^Monthly verification quota reached \(100 of 100 on the Free plan\)\. It resets on \d{4}-\d{2}-01/,
    );
    const now = t.clock.now();
    const monthEnd = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    expect(Number(error?.headers?.['Retry-After'])).toBe(Math.ceil((monthEnd - now.getTime()) / 1000));

    const usage = await t.request
      .get('/api/v1/partners/subscription/usage')
      .set(auth(partner.token))
      .expect(200);
    expect(usage.body.usage).toEqual({
      current_month_verifications: 100,
      verifications_limit: 100,
      usage_percentage: 100,
    });

    // The next month starts from zero.
    t.clock.advance(monthEnd - now.getTime() + 1000);
    await t.services.billing.checkQuota(partner.partner.id);
    expect(await t.services.billing.recordUsage(partner.partner.id)).toBe(1);
  });
});

/** The verification service as the app builds it, with the sign-in flow's partner fixed (partner-stats decides it). */
function serviceFor(partnerId: string, siteId: string, sandbox = false) {
  return createVerificationService(t.deps, {
    audit: t.services.audit,
    attribution: async () => ({ partnerId, siteId, sandbox }),
  });
}

type Service = ReturnType<typeof serviceFor>;
const attempt = (
  service: Service,
  userId: string,
  status: 'approved' | 'rejected' | 'failed' | 'pending',
  type: 'age' | 'location' = 'age',
) =>
  service.record(
    {
      userId,
      type,
      method: type === 'age' ? 'credit_card' : 'ip_geolocation',
      status,
      confidence: status === 'approved' ? 0.95 : 0,
      ageThreshold: type === 'age' ? 18 : null,
      needsReview: status === 'pending',
      message: status,
      details: {},
      ...(status === 'approved' || status === 'pending'
        ? { proves: type === 'age' ? { minAge: 18 } : { location: { country: 'GB', state: null } } }
        : {}),
    },
    { ip: null, userAgent: null },
  );

async function used(partnerId: string): Promise<number> {
  const [row] = await t.db.read<{ used: number }>('SELECT used FROM usage_counters WHERE partner_id = :id', {
    id: partnerId,
  });
  return Number(row?.used ?? 0);
}

const told = (partnerId: string) =>
  t.db.models.AuditLog.findAll({ where: { partner_id: partnerId, event_type: 'partner.quota_exceeded' } });

describe("what counts toward a partner's quota", () => {
  it('counts approvals only: failed, rejected, pending and sandbox checks never', async () => {
    const partner = await registerPartner(t);
    const siteId = randomUUID();
    const live = serviceFor(partner.partner.id, siteId);
    const user = await signUp(t);
    for (const status of ['rejected', 'failed', 'pending', 'rejected'] as const)
      await attempt(live, user.user.id, status);
    expect(await used(partner.partner.id)).toBe(0);
    const other = await signUp(t);
    await attempt(serviceFor(partner.partner.id, randomUUID(), true), other.user.id, 'approved');
    expect(await used(partner.partner.id)).toBe(0);
    await attempt(live, other.user.id, 'approved');
    expect(await used(partner.partner.id)).toBe(1);
    // Every one of them is the partner's in its statistics.
    const rows = await t.db.models.Verification.findAll({ where: { partner_id: partner.partner.id } });
    expect(rows).toHaveLength(6);
  });

  it('counts one approval per user, verification type and month', async () => {
    const partner = await registerPartner(t);
    const live = serviceFor(partner.partner.id, randomUUID());
    const user = await signUp(t);
    for (let i = 0; i < 3; i += 1) await attempt(live, user.user.id, 'approved');
    expect(await used(partner.partner.id)).toBe(1);
    await attempt(live, user.user.id, 'approved', 'location');
    expect(await used(partner.partner.id)).toBe(2);
    const other = await signUp(t);
    await attempt(live, other.user.id, 'approved');
    expect(await used(partner.partner.id)).toBe(3);
    // Next month the same approval counts again.
    const now = t.clock.now();
    t.clock.advance(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 2) - now.getTime());
    await attempt(live, user.user.id, 'approved');
    const [row] = await t.db.read<{ used: number }>(
      'SELECT used FROM usage_counters WHERE partner_id = :id AND period = :period',
      { id: partner.partner.id, period: t.clock.now().toISOString().slice(0, 7) },
    );
    expect(Number(row?.used)).toBe(1);
  });

  it("attributes at most 10 attempts per user and partner a day; the rest are the user's alone", async () => {
    const partner = await registerPartner(t);
    const live = serviceFor(partner.partner.id, randomUUID());
    const user = await signUp(t);
    const rows = [];
    for (let i = 0; i < 12; i += 1) rows.push(await attempt(live, user.user.id, 'rejected'));
    expect(rows.map((row) => row.partner_id !== null)).toEqual([...Array(10).fill(true), false, false]);
    // Past the cap an approval is still made for the user, but not the partner's.
    const approved = await attempt(live, user.user.id, 'approved');
    expect(approved).toMatchObject({ status: 'approved', partner_id: null, site_id: null });
    expect(await used(partner.partner.id)).toBe(0);
    const events = await t.db.models.EventOutbox.count({ where: { partner_id: partner.partner.id } });
    expect(events).toBe(10);
    // Another user of the same partner is not held back by this one.
    const other = await signUp(t);
    expect((await attempt(live, other.user.id, 'rejected')).partner_id).toBe(partner.partner.id);
    // A day later the user's attempts count again.
    t.clock.advance(24 * 3600_000 + 1000);
    expect((await attempt(live, user.user.id, 'rejected')).partner_id).toBe(partner.partner.id);
  });

  it("holds the cap when one user's attempts race", async () => {
    const partner = await registerPartner(t);
    const live = serviceFor(partner.partner.id, randomUUID());
    const user = await signUp(t);
    const rows = await Promise.all(Array.from({ length: 30 }, () => attempt(live, user.user.id, 'rejected')));
    expect(rows.filter((row) => row.partner_id !== null)).toHaveLength(10);
    expect(await t.db.models.Verification.count({ where: { partner_id: partner.partner.id } })).toBe(10);
  });
});

describe('a partner over its quota', () => {
  it("never refuses the user's verification: it is made, not attributed, and the partner is told", async () => {
    const partner = await registerPartner(t);
    await t.services.billing.setPartnerPlan(partner.partner.id, 'free');
    const siteId = randomUUID();
    const live = serviceFor(partner.partner.id, siteId);
    for (let i = 0; i < 99; i += 1) await t.services.billing.recordUsage(partner.partner.id);
    const first = await signUp(t);
    const counted = await attempt(live, first.user.id, 'approved');
    expect(counted.partner_id).toBe(partner.partner.id);
    expect(await used(partner.partner.id)).toBe(100);
    const event = await t.db.models.EventOutbox.findOne({
      where: { partner_id: partner.partner.id, event: 'verification.completed' },
    });
    expect(JSON.parse(event?.payload ?? '{}').data).toMatchObject({
      verification_id: counted.id,
      site_id: siteId,
      status: 'approved',
    });

    const second = await signUp(t);
    const made = await attempt(live, second.user.id, 'approved');
    expect(made).toMatchObject({ status: 'approved', partner_id: null, site_id: null, sandbox: false });
    // The user's proof stands.
    const status = await t.services.verifications.status(second.user.id);
    expect(status).toMatchObject({ age_verified: true, proven_min_age: 18 });
    expect(await used(partner.partner.id)).toBe(100);
    expect(
      await t.db.models.EventOutbox.count({
        where: { partner_id: partner.partner.id, event: 'verification.completed' },
      }),
    ).toBe(1);
    const notices = await told(partner.partner.id);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ severity: 'warning', user_id: null });
    expect(JSON.parse(notices[0]?.details ?? '{}')).toMatchObject({
      site_id: siteId,
      verification_type: 'age',
      plan: 'free',
      verifications_limit: 100,
    });
    // The partner reads it in its own audit log.
    const log = await t.request
      .get('/api/v1/partners/audit-logs?event=partner.quota_exceeded')
      .set(auth(partner.token))
      .expect(200);
    expect(log.body.total_count).toBe(1);
    // Failures over the quota are still the partner's (they cost it nothing).
    expect((await attempt(live, second.user.id, 'rejected')).partner_id).toBe(partner.partner.id);
  });

  it('takes a reviewed approval off the partner when its quota is used up, and counts it when not', async () => {
    const partner = await registerPartner(t);
    await t.services.billing.setPartnerPlan(partner.partner.id, 'free');
    const live = serviceFor(partner.partner.id, randomUUID());
    const admin = { adminUserId: randomUUID(), notes: 'document checked', approve: true };
    const first = await signUp(t);
    const pending = await attempt(live, first.user.id, 'pending');
    expect(pending.partner_id).toBe(partner.partner.id);
    expect(await used(partner.partner.id)).toBe(0);
    const reviewed = await t.services.verifications.review(pending.id, admin, { ip: null, userAgent: null });
    expect(reviewed.partner_id).toBe(partner.partner.id);
    expect(await used(partner.partner.id)).toBe(1);

    for (let i = 0; i < 99; i += 1) await t.services.billing.recordUsage(partner.partner.id);
    const second = await signUp(t);
    const waiting = await attempt(live, second.user.id, 'pending');
    const approved = await t.services.verifications.review(waiting.id, admin, { ip: null, userAgent: null });
    expect(approved).toMatchObject({ status: 'approved', partner_id: null, site_id: null });
    const stored = await t.db.models.Verification.findByPk(waiting.id);
    expect(stored).toMatchObject({ status: 'approved', partner_id: null });
    expect((await t.services.verifications.status(second.user.id)).age_verified).toBe(true);
    expect(await told(partner.partner.id)).toHaveLength(1);
    expect(
      await t.db.models.EventOutbox.count({
        where: { partner_id: partner.partner.id, event: 'verification.completed' },
      }),
    ).toBe(1);
  });
});

describe('API rate limit per plan', () => {
  it("allows the plan's requests per minute, then answers 429 until the minute is over", async () => {
    const partner = await registerPartner(t);
    await t.services.billing.setPartnerPlan(partner.partner.id, 'free');
    const limit = planRateLimit(t.deps, t.services.limiter, () => partner.partner.id);
    let served = 0;
    const call = () => limit({} as Context, async () => void (served += 1));
    for (let i = 0; i < 60; i += 1) await call();
    const refused = await caught(call());
    expect(refused?.status).toBe(429);
    expect(refused?.detail).toBe(
      'API rate limit of the Free plan reached (60 requests per minute). Please slow down or upgrade your plan.',
    );
    expect(Number(refused?.headers?.['Retry-After'])).toBeGreaterThan(0);
    expect(served).toBe(60);
    t.clock.advance(61_000);
    await call();
    expect(served).toBe(61);
  });
});

import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../src/errors';
import { planRateLimit } from '../src/modules/billing/plan-rate-limit';
import { chargeVerification } from '../src/modules/billing/usage';
import { createVerificationService } from '../src/modules/verification/service';
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

  it('one below the quota passes and the quota-th fails; a sandbox verification never counts', async () => {
    const partner = await registerPartner(t);
    await t.services.billing.setPartnerPlan(partner.partner.id, 'free');
    for (let i = 0; i < 99; i += 1) await t.services.billing.recordUsage(partner.partner.id);
    await t.services.billing.checkQuota(partner.partner.id);
    const user = await signUp(t);
    const verification = (sandbox: boolean) =>
      t.db.models.Verification.build({
        id: randomUUID(),
        user_id: user.user.id,
        verification_type: 'age',
        verification_method: 'document',
        status: 'approved',
        partner_id: partner.partner.id,
        site_id: randomUUID(),
        sandbox,
      } as never);
    for (let i = 0; i < 5; i += 1) await chargeVerification(t.services, verification(true));
    await chargeVerification(t.services, verification(false));
    const over = await caught(chargeVerification(t.services, verification(false)));
    expect(over?.status).toBe(429);
    const [row] = await t.db.read<{ used: number }>(
      'SELECT used FROM usage_counters WHERE partner_id = :id',
      {
        id: partner.partner.id,
      },
    );
    expect(Number(row?.used)).toBe(100);
  });
});

describe('verifications made for a partner', () => {
  it('count toward the quota and are announced; past the quota the verification is refused and not stored', async () => {
    const partner = await registerPartner(t);
    await t.services.billing.setPartnerPlan(partner.partner.id, 'free');
    const siteId = randomUUID();
    // The verification service as the app builds it, with the partner attribution fixed (partner-stats decides it).
    const verifications = createVerificationService(t.deps, {
      audit: t.services.audit,
      attribution: async () => ({ partnerId: partner.partner.id, siteId, sandbox: false }),
    });
    const user = await signUp(t);
    const attempt = () =>
      verifications.record(
        {
          userId: user.user.id,
          type: 'age',
          method: 'credit_card',
          status: 'approved',
          confidence: 0.95,
          ageThreshold: 18,
          message: 'Card accepted',
          details: {},
        },
        { ip: null, userAgent: null },
      );
    for (let i = 0; i < 99; i += 1) await t.services.billing.recordUsage(partner.partner.id);
    const row = await attempt();
    expect(row.partner_id).toBe(partner.partner.id);
    const event = await t.db.models.EventOutbox.findOne({
      where: { partner_id: partner.partner.id, event: 'verification.completed' },
    });
    expect(JSON.parse(event?.payload ?? '{}').data).toMatchObject({
      verification_id: row.id,
      site_id: siteId,
      status: 'approved',
      age_threshold: 18,
    });
    const before = await t.db.models.Verification.count({ where: { user_id: user.user.id } });
    const refused = await caught(attempt());
    expect(refused?.status).toBe(429);
    expect(await t.db.models.Verification.count({ where: { user_id: user.user.id } })).toBe(before);
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

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';
import { registerPartner } from './oidc-helpers';
import { startStripeFake } from './stripe-fake';

const SECRET_KEY = 'sk_test_attestly_fake_key';
const WEBHOOK_SECRET = 'whsec_attestly_fake_webhook_secret';

let t: TestApp;
let stripe: Awaited<ReturnType<typeof startStripeFake>>;
beforeAll(async () => {
  stripe = await startStripeFake({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
  t = await createTestApp({
    env: {
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      ATTESTLY_STRIPE_PRICES: 'starter=price_starter,growth=price_growth,scale=price_scale',
      ATTESTLY_STRIPE_API_URL: stripe.apiUrl,
    },
  });
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

async function postEvent(event: { payload: string; header: string }) {
  return t.request
    .post('/api/v1/stripe/webhook')
    .set('Content-Type', 'application/json')
    .set('Stripe-Signature', event.header)
    .send(event.payload);
}

async function planAudits(partnerId: string) {
  return t.db.models.AuditLog.count({ where: { partner_id: partnerId, event_type: 'partner.plan_changed' } });
}

/** A partner who bought the growth plan through Checkout. */
async function subscribed() {
  const partner = await registerPartner(t);
  const started = await t.request
    .post('/api/v1/partners/subscription/checkout-session?plan_id=growth')
    .set(auth(partner.token))
    .expect(200);
  const sessionId = String(started.body.session_id);
  const { subscription } = stripe.completeCheckout(sessionId);
  await t.request
    .get(`/api/v1/partners/subscription/checkout-success?session_id=${sessionId}`)
    .set(auth(partner.token))
    .expect(200);
  return { partner, sessionId, subscription };
}

describe('plans and subscription with Stripe', () => {
  it('lists the four plans under data.plans', async () => {
    const response = await t.request.get('/api/v1/partners/subscription/plans').expect(200);
    expect(response.body.data.plans.map((plan: { id: string }) => plan.id)).toEqual([
      'free',
      'starter',
      'growth',
      'scale',
    ]);
    expect(response.body.data.plans[0]).toMatchObject({ price: 0, verifications: 100, is_popular: false });
  });

  it('buys a plan through Checkout, confirms it once, and shows it in the usage', async () => {
    const partner = await registerPartner(t);
    const before = await t.request
      .get('/api/v1/partners/subscription/usage')
      .set(auth(partner.token))
      .expect(200);
    // New partners start on Free (issue 25 item 8), shown with its price since plans can be bought here.
    expect(before.body).toMatchObject({
      current_plan: { id: 'free', name: 'Free', price: 0 },
      next_billing_date: null,
      subscription_status: 'active',
      usage: { current_month_verifications: 0, verifications_limit: 100, usage_percentage: 0 },
      billing_enabled: true,
      can_manage: false,
    });

    const started = await t.request
      .post('/api/v1/partners/subscription/checkout-session?plan_id=growth')
      .set(auth(partner.token))
      .expect(200);
    expect(started.body.checkout_url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    const sessionId = String(started.body.session_id);
    const created = stripe.sessions.get(sessionId);
    expect(created).toMatchObject({
      mode: 'subscription',
      line_items: [{ price: 'price_growth', quantity: '1' }],
      metadata: { partner_id: partner.partner.id, plan: 'growth' },
      success_url: `http://attestly.test/partner/subscription-success?session_id=${sessionId}`,
    });

    // Not paid yet: nothing is activated.
    const early = await t.request
      .get(`/api/v1/partners/subscription/checkout-success?session_id=${sessionId}`)
      .set(auth(partner.token))
      .expect(409);
    expect(early.body.detail).toBe('The payment has not been completed');

    stripe.completeCheckout(sessionId);
    const confirmed = await t.request
      .get(`/api/v1/partners/subscription/checkout-success?session_id=${sessionId}`)
      .set(auth(partner.token))
      .expect(200);
    expect(confirmed.body).toMatchObject({ success: true, activated: true, plan: 'growth' });
    expect(confirmed.body.subscription).toMatchObject({
      current_plan: { id: 'growth' },
      can_manage: true,
      usage: { verifications_limit: 10000 },
    });
    expect(confirmed.body.subscription.next_billing_date).not.toBeNull();

    // The success page reloaded, and Stripe's own event for the same session: no second activation.
    const again = await t.request
      .get(`/api/v1/partners/subscription/checkout-success?session_id=${sessionId}`)
      .set(auth(partner.token))
      .expect(200);
    expect(again.body.activated).toBe(false);
    const completed = await postEvent(
      stripe.event('checkout.session.completed', stripe.sessions.get(sessionId) ?? {}),
    );
    expect(completed.status).toBe(200);
    expect(await planAudits(partner.partner.id)).toBe(1);

    // Another partner cannot claim the session.
    const other = await registerPartner(t);
    await t.request
      .get(`/api/v1/partners/subscription/checkout-success?session_id=${sessionId}`)
      .set(auth(other.token))
      .expect(404);
    const unknown = await t.request
      .get('/api/v1/partners/subscription/checkout-success?session_id=cs_test_nope')
      .set(auth(partner.token))
      .expect(404);
    expect(unknown.body.detail).toBe('Checkout session not found');
    const none = await t.request
      .get('/api/v1/partners/subscription/checkout-success')
      .set(auth(partner.token))
      .expect(422);
    expect(none.body.detail).toBe('No session ID provided');

    // The customer portal opens for the Stripe customer.
    const portal = await t.request
      .post('/api/v1/partners/subscription/portal-session')
      .set(auth(partner.token))
      .expect(200);
    expect(portal.body.portal_url).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\//);
  });

  it('refuses unknown plans, the current plan, the free plan and a second subscription', async () => {
    const partner = await registerPartner(t);
    const unknown = await t.request
      .post('/api/v1/partners/subscription/checkout-session?plan_id=platinum')
      .set(auth(partner.token))
      .expect(422);
    expect(unknown.body.detail).toBe('Unknown plan');
    const missing = await t.request
      .post('/api/v1/partners/subscription/checkout-session')
      .set(auth(partner.token))
      .expect(422);
    expect(missing.body.detail).toBe('plan_id is required');
    await t.services.billing.setPartnerPlan(partner.partner.id, 'starter');
    const current = await t.request
      .post('/api/v1/partners/subscription/checkout-session?plan_id=starter')
      .set(auth(partner.token))
      .expect(409);
    expect(current.body.detail).toBe('You are already on the starter plan');
    await t.services.billing.setPartnerPlan(partner.partner.id, 'free');
    const free = await t.request
      .post('/api/v1/partners/subscription/checkout-session?plan_id=free')
      .set(auth(partner.token))
      .expect(409);
    expect(free.body.detail).toBe('You are already on the free plan');
    const portal = await t.request
      .post('/api/v1/partners/subscription/portal-session')
      .set(auth(partner.token))
      .expect(409);
    expect(portal.body.detail).toBe('Subscribe to a paid plan first');

    const { partner: payer } = await subscribed();
    const second = await t.request
      .post('/api/v1/partners/subscription/checkout-session?plan_id=scale')
      .set(auth(payer.token))
      .expect(409);
    expect(second.body.code).toBe('billing.use_portal');
    await t.request.post('/api/v1/partners/subscription/checkout-session?plan_id=growth').expect(401);

    // Stripe down: the payment provider's failure, with the screen's message, and nothing recorded.
    stripe.outage.remaining = 5;
    const down = await t.request
      .post('/api/v1/partners/subscription/checkout-session?plan_id=scale')
      .set(auth(partner.token))
      .expect(502);
    expect(down.body.detail).toBe('Failed to start payment process');
    stripe.outage.remaining = 0;
  });
});

describe('Stripe webhook', () => {
  it('refuses forged, stale and unsigned events', async () => {
    const { partner, subscription } = await subscribed();
    const object = { ...subscription, status: 'canceled' };
    const forged = await postEvent(
      stripe.event('customer.subscription.deleted', object, { secret: 'whsec_wrong' }),
    );
    expect(forged.status).toBe(400);
    expect(forged.body.detail).toBe('Invalid Stripe signature');
    const stale = await postEvent(
      stripe.event('customer.subscription.deleted', object, {
        timestamp: Math.floor(Date.now() / 1000) - 600,
      }),
    );
    expect(stale.status).toBe(400);
    const signed = stripe.event('customer.subscription.deleted', object);
    const tampered = await postEvent({
      payload: signed.payload.replace('canceled', 'active  '),
      header: signed.header,
    });
    expect(tampered.status).toBe(400);
    const unsigned = await t.request
      .post('/api/v1/stripe/webhook')
      .set('Content-Type', 'application/json')
      .send(signed.payload);
    expect(unsigned.status).toBe(400);
    const usage = await t.request
      .get('/api/v1/partners/subscription/usage')
      .set(auth(partner.token))
      .expect(200);
    expect(usage.body.current_plan.id).toBe('growth');
  });

  it('follows subscription changes, invoices and cancellation, each event once', async () => {
    const { partner, subscription } = await subscribed();
    const usage = async () =>
      (await t.request.get('/api/v1/partners/subscription/usage').set(auth(partner.token)).expect(200)).body;

    const items = subscription.items as { data: Array<Record<string, unknown>> };
    const upgraded = {
      ...subscription,
      items: { ...items, data: [{ ...items.data[0], price: { id: 'price_scale', object: 'price' } }] },
    };
    expect((await postEvent(stripe.event('customer.subscription.updated', upgraded))).body).toEqual({
      received: true,
      duplicate: false,
    });
    expect((await usage()).current_plan.id).toBe('scale');

    const invoice = {
      id: 'in_test_1',
      object: 'invoice',
      customer: subscription.customer,
      lines: { data: [] },
    };
    const failed = stripe.event('invoice.payment_failed', invoice);
    await postEvent(failed).then((response) => expect(response.status).toBe(200));
    expect((await usage()).subscription_status).toBe('past_due');
    await postEvent(stripe.event('invoice.paid', { ...invoice, id: 'in_test_2' }));
    expect((await usage()).subscription_status).toBe('active');
    // Stripe retries a delivered event: acknowledged, ignored.
    const replay = await postEvent(failed);
    expect(replay.body).toEqual({ received: true, duplicate: true });
    expect((await usage()).subscription_status).toBe('active');

    await postEvent(stripe.event('customer.subscription.deleted', { ...upgraded, status: 'canceled' }));
    const after = await usage();
    expect(after).toMatchObject({
      current_plan: { id: 'free' },
      subscription_status: 'cancelled',
      next_billing_date: null,
    });
    const audits = await t.db.models.AuditLog.findAll({
      where: { partner_id: partner.partner.id, event_type: 'partner.plan_changed' },
      order: [['id', 'ASC']],
    });
    expect(audits.map((row) => (JSON.parse(row.details) as { to: string }).to)).toEqual([
      'growth',
      'scale',
      'free',
    ]);
  });
});

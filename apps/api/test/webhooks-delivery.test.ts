import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, randomClientIp, signUp, type TestApp } from './helpers';
import { startReceiver } from './webhook-receiver';
import { deliveriesOf, partnerWithWebhook } from './webhooks-helpers';
import { emitExpiredTokens } from '../src/modules/partners/webhooks/events';
import { backoffMs } from '../src/modules/partners/webhooks/worker';

let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  let clock: () => Date = () => new Date();
  receiver = await startReceiver({ now: () => clock() });
  // The receiver's own host and port, and nothing else on this machine.
  t = await createTestApp({ env: { ATTESTLY_WEBHOOK_ALLOWLIST: new URL(receiver.url).host } });
  clock = () => t.clock.now();
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});
beforeEach(() => {
  receiver.received.length = 0;
  receiver.state.respond = () => 200;
});

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Signs the partner in again (its session ends after 12 hours of test clock). */
async function signIn(partner: { email: string; password: string }): Promise<string> {
  const login = await t.request
    .post('/api/v1/partners/login')
    .set('X-Forwarded-For', randomClientIp())
    .send({ email: partner.email, password: partner.password })
    .expect(200);
  return login.body.access_token as string;
}

/** A grant (a user's "token" for a partner site) as the OIDC layer records it. */
async function grant(partnerId: string, userId: string, expiresAt: Date) {
  const now = t.clock.now();
  return t.db.models.OAuthAuthorization.create({
    id: `grant-${randomUUID()}`,
    user_id: userId,
    partner_id: partnerId,
    site_id: randomUUID(),
    client_id: 'client-1',
    scopes: ['basic_info', 'AGE_18'],
    age_threshold: 18,
    jurisdiction: null,
    created_at: now,
    updated_at: now,
    expires_at: expiresAt,
    last_used_at: null,
    revoked_at: null,
    revoked_reason: null,
  } as never);
}

describe('webhook delivery', () => {
  it('delivers token.revoked with the pairwise subject only, signed, once', async () => {
    const { partner, webhook } = await partnerWithWebhook(t, receiver);
    const user = await signUp(t);
    const row = await grant(partner.partner.id, user.user.id, new Date(t.clock.now().getTime() + 86400_000));
    expect(await t.services.grants.revoke(row.id, 'user_revoked')).toBe(true);
    await t.services.webhooks.deliverDueOnce();
    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    expect(delivery?.verified).toBe(true);
    expect(delivery?.payload).toMatchObject({
      event: 'token.revoked',
      type: 'token.revoked',
      data: { token_id: row.id, partner_id: partner.partner.id, reason: 'user_revoked' },
    });
    expect(delivery?.payload?.id).toBe(delivery?.eventId);
    expect(delivery?.payload?.data.user_id).not.toBe(user.user.id);
    expect(delivery?.body).not.toContain(user.email);
    // Nothing is due any more.
    expect(await t.services.webhooks.deliverDueOnce()).toBe(0);
    const log = await deliveriesOf(t, partner.token, webhook.id);
    expect(log.deliveries[0]).toMatchObject({ event: 'token.revoked', status: 'succeeded', attempts: 1 });
  });

  it('retries failures with backoff under the clock, then succeeds with the same event id', async () => {
    const { partner, webhook } = await partnerWithWebhook(t, receiver);
    receiver.state.respond = (_delivery, count) => (count <= 2 ? 500 : 200);
    const user = await signUp(t);
    const row = await grant(partner.partner.id, user.user.id, new Date(t.clock.now().getTime() + 86400_000));
    await t.services.grants.revoke(row.id, 'user_revoked');

    await t.services.webhooks.deliverDueOnce();
    expect(receiver.received).toHaveLength(1);
    // Not due again before its backoff has passed.
    t.clock.advance(4_000);
    expect(await t.services.webhooks.deliverDueOnce()).toBe(0);
    t.clock.advance(10 * 60_000);
    await t.services.webhooks.deliverDueOnce();
    t.clock.advance(10 * 60_000);
    await t.services.webhooks.deliverDueOnce();
    expect(receiver.received).toHaveLength(3);
    expect(receiver.received.every((delivery) => delivery.verified)).toBe(true);
    expect(new Set(receiver.received.map((delivery) => delivery.eventId)).size).toBe(1);
    const log = await deliveriesOf(t, partner.token, webhook.id);
    expect(log.deliveries[0]).toMatchObject({ status: 'succeeded', attempts: 3 });
    expect(log.deliveries[0]?.attempt_log.map((attempt) => attempt.status_code)).toEqual([500, 500, 200]);
    expect(log.deliveries[0]?.attempt_log[0]).toMatchObject({
      error: 'failed: HTTP 500',
      response_excerpt: null,
    });
  });

  it('backs off exponentially with jitter, capped at an hour', () => {
    expect(backoffMs(1, () => 0)).toBe(5_000);
    expect(backoffMs(1, () => 1)).toBe(10_000);
    expect(backoffMs(3, () => 1)).toBe(40_000);
    expect(backoffMs(30, () => 1)).toBe(3600_000);
    expect(backoffMs(30, () => 0)).toBe(1800_000);
  });

  it('gives up after 24 hours of failures and marks the delivery failed', async () => {
    const { partner, webhook } = await partnerWithWebhook(t, receiver);
    receiver.state.respond = () => 500;
    const user = await signUp(t);
    const row = await grant(partner.partner.id, user.user.id, new Date(t.clock.now().getTime() + 86400_000));
    await t.services.grants.revoke(row.id, 'user_revoked');
    const started = t.clock.now().getTime();
    for (let hour = 0; hour < 30; hour += 1) {
      await t.services.webhooks.deliverDueOnce();
      t.clock.advance(3600_000);
    }
    const log = await deliveriesOf(t, await signIn(partner), webhook.id);
    const delivery = log.deliveries[0];
    expect(delivery?.status).toBe('failed');
    expect(delivery?.attempts).toBeGreaterThan(5);
    expect(receiver.received.length).toBe(delivery?.attempts);
    // The last attempt came within the 24-hour window.
    const attempts = await t.db.models.WebhookAttempt.findAll({
      where: { delivery_id: delivery?.id as string },
    });
    const last = Math.max(...attempts.map((attempt) => attempt.created_at.getTime()));
    expect(last - started).toBeLessThanOrEqual(24 * 3600_000);
  });

  it('disables the endpoint when the receiver answers 410 Gone', async () => {
    const { partner, webhook } = await partnerWithWebhook(t, receiver);
    receiver.state.respond = () => 410;
    const user = await signUp(t);
    const first = await grant(
      partner.partner.id,
      user.user.id,
      new Date(t.clock.now().getTime() + 86400_000),
    );
    await t.services.grants.revoke(first.id, 'user_revoked');
    await t.services.webhooks.deliverDueOnce();
    const shown = await t.request
      .get(`/api/v1/partners/webhooks/${webhook.id}`)
      .set(auth(partner.token))
      .expect(200);
    expect(shown.body).toMatchObject({ active: false, disabled_reason: 'The receiver answered 410 Gone' });
    const log = await deliveriesOf(t, partner.token, webhook.id);
    expect(log.deliveries[0]).toMatchObject({ status: 'failed', attempts: 1 });
    // Later events are not queued for a disabled endpoint.
    const second = await grant(
      partner.partner.id,
      user.user.id,
      new Date(t.clock.now().getTime() + 86400_000),
    );
    await t.services.grants.revoke(second.id, 'user_revoked');
    expect((await deliveriesOf(t, partner.token, webhook.id)).total_count).toBe(1);
    const audit = await t.db.models.AuditLog.findOne({
      where: { partner_id: partner.partner.id, event_type: 'partner.webhook_disabled' },
    });
    expect(audit).not.toBeNull();
    // Redelivery needs the endpoint active again.
    const id = log.deliveries[0]?.id as string;
    await t.request
      .post(`/api/v1/partners/webhooks/${webhook.id}/deliveries/${id}/redeliver`)
      .set(auth(partner.token))
      .expect(409);
  });

  it('redelivers a failed delivery on request, with the same event id', async () => {
    const { partner, webhook } = await partnerWithWebhook(t, receiver);
    receiver.state.respond = () => 500;
    const user = await signUp(t);
    const row = await grant(partner.partner.id, user.user.id, new Date(t.clock.now().getTime() + 86400_000));
    await t.services.grants.revoke(row.id, 'user_revoked');
    for (let hour = 0; hour < 30; hour += 1) {
      await t.services.webhooks.deliverDueOnce();
      t.clock.advance(3600_000);
    }
    partner.token = await signIn(partner);
    const failed = (await deliveriesOf(t, partner.token, webhook.id)).deliveries[0];
    expect(failed?.status).toBe('failed');
    receiver.state.respond = () => 200;
    receiver.received.length = 0;
    const redelivered = await t.request
      .post(`/api/v1/partners/webhooks/${webhook.id}/deliveries/${failed?.id}/redeliver`)
      .set(auth(partner.token))
      .expect(202);
    expect(redelivered.body.status).toBe('pending');
    await t.services.webhooks.deliverDueOnce();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]?.eventId).toBe(failed?.event_id);
    expect((await deliveriesOf(t, partner.token, webhook.id)).deliveries[0]?.status).toBe('succeeded');
    await t.request
      .post(`/api/v1/partners/webhooks/${webhook.id}/deliveries/${randomUUID()}/redeliver`)
      .set(auth(partner.token))
      .expect(404);
  });

  it('announces an expired grant once (token.expired), even when the job runs twice', async () => {
    const { partner } = await partnerWithWebhook(t, receiver);
    const user = await signUp(t);
    const row = await grant(partner.partner.id, user.user.id, new Date(t.clock.now().getTime() + 60_000));
    expect(await emitExpiredTokens(t.services)).toBe(0);
    t.clock.advance(120_000);
    const [first, second] = await Promise.all([emitExpiredTokens(t.services), emitExpiredTokens(t.services)]);
    expect((first as number) + (second as number)).toBe(1);
    expect(await emitExpiredTokens(t.services)).toBe(0);
    await t.services.webhooks.deliverDueOnce();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]?.payload).toMatchObject({
      event: 'token.expired',
      data: { token_id: row.id, scopes_granted: ['basic_info', 'AGE_18'], age_threshold: 18 },
    });
    // Once the grant itself is gone, its announcement record goes too.
    await row.destroy();
    await emitExpiredTokens(t.services);
    const [left] = await t.db.read<{ n: number }>(
      'SELECT COUNT(*) AS n FROM token_expiry_events WHERE grant_id = :id',
      {
        id: row.id,
      },
    );
    expect(Number(left?.n)).toBe(0);
  });

  it('announces a reviewed verification made for a partner (verification.completed), without personal data', async () => {
    const { partner } = await partnerWithWebhook(t, receiver, [
      'verification.completed',
      'verification.failed',
    ]);
    const user = await signUp(t);
    const now = t.clock.now();
    const pending = await t.db.models.Verification.create({
      user_id: user.user.id,
      verification_type: 'age',
      verification_method: 'document',
      status: 'pending',
      confidence_score: 0.7,
      age_threshold: 18,
      needs_manual_review: true,
      message: 'Under review',
      result_details: { proves: { minAge: 18 } },
      document_analysis: null,
      review_notes: [],
      subject_fingerprint: null,
      partner_id: partner.partner.id,
      site_id: randomUUID(),
      reviewed_at: null,
      reviewed_by: null,
      expires_at: null,
      created_at: now,
      updated_at: now,
    } as never);
    await t.services.verifications.review(
      pending.id,
      { approve: true, notes: 'Looks right', adminUserId: randomUUID() },
      { ip: null, userAgent: null } as never,
    );
    await t.services.webhooks.deliverDueOnce();
    expect(receiver.received).toHaveLength(1);
    const payload = receiver.received[0]?.payload;
    expect(payload).toMatchObject({
      event: 'verification.completed',
      data: {
        verification_id: pending.id,
        partner_id: partner.partner.id,
        verification_type: 'age',
        status: 'approved',
        age_threshold: 18,
      },
    });
    expect(payload?.data.user_id).not.toBe(user.user.id);
    expect(receiver.received[0]?.body).not.toContain(user.email);
  });

  it('prunes settled events after the retention period, keeping pending ones', async () => {
    const { partner } = await partnerWithWebhook(t, receiver);
    const user = await signUp(t);
    const done = await grant(partner.partner.id, user.user.id, new Date(t.clock.now().getTime() + 86400_000));
    await t.services.grants.revoke(done.id, 'user_revoked');
    await t.services.webhooks.deliverDueOnce();
    const before = await t.db.models.EventOutbox.count({ where: { partner_id: partner.partner.id } });
    expect(before).toBeGreaterThan(0);
    t.clock.advance(31 * 86400_000);
    receiver.state.respond = () => 500;
    const pending = await grant(
      partner.partner.id,
      user.user.id,
      new Date(t.clock.now().getTime() + 86400_000),
    );
    await t.services.grants.revoke(pending.id, 'user_revoked');
    expect(await t.services.webhooks.prune()).toBeGreaterThanOrEqual(before);
    expect(await t.db.models.EventOutbox.count({ where: { partner_id: partner.partner.id } })).toBe(1);
    expect(await t.db.models.WebhookDelivery.count({ where: { partner_id: partner.partner.id } })).toBe(1);
  });
});

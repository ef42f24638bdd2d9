import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';
import { registerPartner } from './oidc-helpers';
import { startReceiver } from './webhook-receiver';
import { deliveriesOf, partnerWithWebhook } from './webhooks-helpers';

// Managing webhook endpoints; deliveries are in webhooks-delivery.test.ts.
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

describe('webhook endpoints', () => {
  it('registers a webhook with a generated secret shown once, lists, updates, rotates and deletes it', async () => {
    const partner = await registerPartner(t);
    const created = await t.request
      .post('/api/v1/partners/webhooks')
      .set(auth(partner.token))
      .send({ url: receiver.url, events: ['token.revoked', 'verification.completed'] })
      .expect(201);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(created.body).toMatchObject({
      url: receiver.url,
      events: ['verification.completed', 'token.revoked'],
      active: true,
      secret_hint: created.body.secret.slice(-4),
    });
    const listed = await t.request.get('/api/v1/partners/webhooks').set(auth(partner.token)).expect(200);
    expect(listed.body.total_count).toBe(1);
    expect(listed.body.webhooks[0].secret).toBeUndefined();
    const one = await t.request
      .get(`/api/v1/partners/webhooks/${created.body.id}`)
      .set(auth(partner.token))
      .expect(200);
    expect(one.body.secret).toBeUndefined();

    const updated = await t.request
      .put(`/api/v1/partners/webhooks/${created.body.id}`)
      .set(auth(partner.token))
      .send({ events: ['token.expired'], active: false })
      .expect(200);
    expect(updated.body).toMatchObject({ events: ['token.expired'], active: false });
    expect(updated.body.secret).toBeUndefined();
    const rotated = await t.request
      .put(`/api/v1/partners/webhooks/${created.body.id}`)
      .set(auth(partner.token))
      .send({ rotate_secret: true })
      .expect(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);

    // Another partner sees nothing of it.
    const other = await registerPartner(t);
    await t.request.get(`/api/v1/partners/webhooks/${created.body.id}`).set(auth(other.token)).expect(404);
    await t.request.delete(`/api/v1/partners/webhooks/${created.body.id}`).set(auth(other.token)).expect(404);
    await t.request.get('/api/v1/partners/webhooks/not-a-uuid').set(auth(partner.token)).expect(404);

    await t.request
      .delete(`/api/v1/partners/webhooks/${created.body.id}`)
      .set(auth(partner.token))
      .expect(204);
    await t.request.get(`/api/v1/partners/webhooks/${created.body.id}`).set(auth(partner.token)).expect(404);
    const audit = await t.db.models.AuditLog.findAll({ where: { partner_id: partner.partner.id } });
    expect(audit.map((row) => row.event_type)).toEqual(
      expect.arrayContaining([
        'partner.webhook_created',
        'partner.webhook_updated',
        'partner.webhook_secret_rotated',
        'partner.webhook_deleted',
      ]),
    );
  });

  it('keeps a secret the partner chose, and refuses bad URLs, unknown events and missing sign-in', async () => {
    const partner = await registerPartner(t);
    const chosen = await t.request
      .post('/api/v1/partners/webhooks')
      .set(auth(partner.token))
      .send({ url: receiver.url, events: ['token.revoked'], secret: 'my-own-secret-0123456789' })
      .expect(201);
    expect(chosen.body.secret).toBe('my-own-secret-0123456789');

    const bad = async (body: Record<string, unknown>, message: unknown) => {
      const response = await t.request
        .post('/api/v1/partners/webhooks')
        .set(auth(partner.token))
        .send({ events: ['token.revoked'], ...body })
        .expect(422);
      expect(response.body.detail).toEqual(message);
    };
    await bad({ url: 'not a url' }, 'Webhook URL must be a valid URL');
    await bad({ url: 'ftp://hooks.example.com/x' }, 'Webhook URL must use https');
    await bad({ url: 'http://hooks.example.com/x' }, 'Webhook URL must use https');
    await bad({ url: 'https://user:pw@hooks.example.com/x' }, 'Webhook URL must not contain credentials');
    for (const url of [
      'https://10.0.0.5/x',
      'https://169.254.169.254/latest/meta-data',
      'https://192.168.1.1/',
      'https://[::1]/',
      'https://[::ffff:10.0.0.1]/',
      'https://0.0.0.0/',
      'https://localhost/x',
      'https://metadata.google.internal/',
    ]) {
      await bad({ url }, 'Webhook URL must not point at a private, loopback or link-local address');
    }
    await bad(
      { url: 'https://hooks.example.com/x', events: ['user.created'] },
      expect.stringContaining('Unknown event: use verification.completed'),
    );
    await bad({ url: 'https://hooks.example.com/x', events: [] }, 'Choose at least one event');
    await bad(
      { url: 'https://hooks.example.com/x', secret: 'short' },
      'Secret must be at least 16 characters',
    );
    await t.request
      .post('/api/v1/partners/webhooks')
      .send({ url: receiver.url, events: ['token.revoked'] })
      .expect(401);
    expect(await t.db.models.WebhookEndpoint.count({ where: { partner_id: partner.partner.id } })).toBe(1);
  });

  it('sends a signed ping at once from the test call and logs it', async () => {
    const { partner, webhook } = await partnerWithWebhook(t, receiver);
    const response = await t.request
      .post(`/api/v1/partners/webhooks/${webhook.id}/test`)
      .set(auth(partner.token))
      .expect(200);
    // The receiver is on this machine (allowlisted, not public): its answer is not echoed back.
    expect(response.body).toMatchObject({
      success: true,
      status_code: 200,
      error: null,
      response_excerpt: null,
    });
    expect(receiver.received).toHaveLength(1);
    const [ping] = receiver.received;
    expect(ping?.verified).toBe(true);
    expect(ping?.contentType).toBe('application/json');
    expect(ping?.payload).toMatchObject({ event: 'ping', type: 'ping', id: ping?.eventId });
    const log = await deliveriesOf(t, partner.token, webhook.id);
    expect(log.deliveries[0]).toMatchObject({ event: 'ping', status: 'succeeded', attempts: 1 });
    expect(log.deliveries[0]?.attempt_log[0]).toMatchObject({ attempt: 1, status_code: 200 });

    receiver.state.respond = () => 503;
    const failed = await t.request
      .post(`/api/v1/partners/webhooks/${webhook.id}/test`)
      .set(auth(partner.token))
      .expect(200);
    expect(failed.body).toMatchObject({
      success: false,
      status_code: 503,
      error: 'failed: HTTP 503',
      response_excerpt: null,
    });
  });
});

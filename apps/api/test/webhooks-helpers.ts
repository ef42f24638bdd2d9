import type { TestApp } from './helpers';
import { registerPartner } from './oidc-helpers';
import type { startReceiver } from './webhook-receiver';

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A partner with a webhook to `receiver`, which then checks deliveries against the webhook's secret. */
export async function partnerWithWebhook(
  t: TestApp,
  receiver: Receiver,
  events = ['token.revoked', 'token.expired', 'verification.completed'],
) {
  const partner = await registerPartner(t);
  const created = await t.request
    .post('/api/v1/partners/webhooks')
    .set(auth(partner.token))
    .send({ url: receiver.url, events })
    .expect(201);
  receiver.state.secret = created.body.secret as string;
  return { partner, webhook: created.body as { id: string; secret: string } };
}

/** The delivery log of a partner's webhook, as the partner reads it. */
export async function deliveriesOf(t: TestApp, token: string, webhookId: string) {
  const response = await t.request
    .get(`/api/v1/partners/webhooks/${webhookId}/deliveries`)
    .set(auth(token))
    .expect(200);
  return response.body as {
    deliveries: Array<{
      id: string;
      event_id: string;
      event: string;
      status: string;
      attempts: number;
      attempt_log: Array<{
        attempt: number;
        status_code: number | null;
        latency_ms: number;
        response_excerpt: string | null;
      }>;
    }>;
    total_count: number;
  };
}

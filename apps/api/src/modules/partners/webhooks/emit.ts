import { randomUUID } from 'node:crypto';
import type { Transaction } from 'sequelize';
import { WEBHOOK_LIMITS, type WebhookEventType } from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import type { Database } from '../../../db/database';

export interface WebhookEventInput {
  partnerId: string;
  type: WebhookEventType;
  /** The minimal payload: what the partner was granted, never more (pairwise subject, site, scope, result). */
  data: Record<string, unknown>;
}

/** The running delivery worker per database, woken when an event is queued (see emitWebhookEvent). */
const wakers = new WeakMap<Database, () => void>();

/**
 * Writes an event to the outbox in the caller's transaction (so it exists exactly when the change it describes
 * does) and queues one delivery per active endpoint of the partner that subscribed to it. A plain function of the
 * database, so that any service can emit without depending on the webhook service.
 */
export async function emitWebhookEvent(
  deps: Pick<Deps, 'db' | 'clock'>,
  event: WebhookEventInput,
  { transaction }: { transaction?: Transaction } = {},
): Promise<string> {
  const { EventOutbox, WebhookEndpoint, WebhookDelivery } = deps.db.models;
  const now = deps.clock.now();
  const id = randomUUID();
  const payload = JSON.stringify({
    id,
    event: event.type,
    type: event.type,
    timestamp: now.toISOString(),
    data: event.data,
  });
  const endpoints = await WebhookEndpoint.findAll({
    where: { partner_id: event.partnerId, active: true },
    attributes: ['id', 'events'],
    transaction,
  });
  const subscribed = endpoints.filter((endpoint) =>
    (JSON.parse(endpoint.events) as string[]).includes(event.type),
  );
  await EventOutbox.create(
    {
      id,
      partner_id: event.partnerId,
      event: event.type,
      payload,
      created_at: now,
      available_at: now,
      locked_until: null,
      // The event is handed to the delivery queue in this same unit of work.
      delivered_at: now,
      last_error: null,
    },
    { transaction },
  );
  if (subscribed.length > 0) {
    await WebhookDelivery.bulkCreate(
      subscribed.map((endpoint) => ({
        event_id: id,
        endpoint_id: endpoint.id,
        partner_id: event.partnerId,
        event: event.type,
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
        give_up_at: new Date(now.getTime() + WEBHOOK_LIMITS.retryWindowMs),
        locked_until: null,
        locked_by: null,
        last_status_code: null,
        created_at: now,
        delivered_at: null,
        updated_at: now,
      })),
      { transaction },
    );
    const wake = wakers.get(deps.db);
    if (wake) {
      if (transaction) transaction.afterCommit(wake);
      else wake();
    }
  }
  return id;
}

/** Registers the delivery worker of `db` (service.ts) to be woken when an event is queued. */
export function wakeOnEmit(db: Database, wake: () => void): void {
  wakers.set(db, wake);
}

import { randomUUID } from 'node:crypto';
import type { Transaction } from 'sequelize';
import {
  WEBHOOK_LIMITS,
  type CreateWebhookBody,
  type UpdateWebhookBody,
  type WebhookEvent,
} from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import { underPartnerLock } from '../../../db/partner-lock';
import type { WebhookEndpoint } from '../../../db/models/index';
import { AppError, notFound } from '../../../errors';
import type { AuditService } from '../../shared/audit/service';
import type { RequestOrigin } from '../../shared/sessions/service';
import { createDeliveryLog } from './delivery-log';
import { emitWebhookEvent, wakeOnEmit, type WebhookEventInput } from './emit';
import { parseAllowlist, urlProblem } from './outbound-guard';
import { presentWebhook } from './presenters';
import { createWebhookSender, type WebhookSender } from './sender';
import { generateSecret, sealSecret, webhookSecretKey } from './signing';
import { CLAIM_LEASE_MS, createDeliveryWorker } from './worker';

export { emitWebhookEvent, type WebhookEventInput } from './emit';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface WebhookServiceOptions {
  audit: AuditService;
  /** Replaces the HTTP sender (benchmarks); the default refuses private addresses (outbound-guard.ts). */
  sender?: WebhookSender;
}

/**
 * Webhooks (DESIGN.md §6, spec 01 §7 "Partner"): endpoints, the transactional outbox the rest of the API writes
 * events to (`emit`), the delivery worker, the test ping, the delivery log and redelivery.
 */
export function createWebhookService(deps: Deps, options: WebhookServiceOptions) {
  const { db, clock, config } = deps;
  const { audit } = options;
  const { EventOutbox, WebhookEndpoint, WebhookDelivery, WebhookAttempt } = db.models;
  const allowlist = parseAllowlist(config.webhooks.allowlist);
  const http = options.sender ? null : createWebhookSender(allowlist);
  const sender = options.sender ?? (http as NonNullable<typeof http>).send;
  const worker = createDeliveryWorker(deps, { audit, sender });
  const secretKey = webhookSecretKey(config.masterKey);
  /** Set once the delivery job runs in this process: then a new event is sent at once instead of at the next tick. */
  let live = false;

  const kick = () => {
    if (live) setImmediate(() => void worker.deliverDue().catch(() => undefined));
  };
  wakeOnEmit(db, kick);

  function checkUrl(url: string): void {
    const problem = urlProblem(url, allowlist);
    if (problem) throw new AppError(422, 'webhook.invalid_url', problem, [{ path: 'url', message: problem }]);
  }

  async function owned(partnerId: string, id: string): Promise<WebhookEndpoint> {
    if (!UUID.test(id)) throw notFound('Webhook not found');
    const row = await WebhookEndpoint.findOne({ where: { id, partner_id: partnerId } });
    if (!row) throw notFound('Webhook not found');
    return row;
  }

  async function list(partnerId: string) {
    const rows = await WebhookEndpoint.findAll({
      where: { partner_id: partnerId },
      order: [['created_at', 'ASC']],
    });
    return { webhooks: rows.map((row) => presentWebhook(row)), total_count: rows.length };
  }

  async function create(partnerId: string, input: CreateWebhookBody, origin: RequestOrigin) {
    checkUrl(input.url);
    const now = clock.now();
    const id = randomUUID();
    const secret = input.secret ?? generateSecret();
    // Counted and inserted under the partner's lock: racing requests cannot pass the limit together.
    const row = await underPartnerLock(db, partnerId, async (transaction) => {
      const count = await WebhookEndpoint.count({ where: { partner_id: partnerId }, transaction });
      if (count >= WEBHOOK_LIMITS.endpointsPerPartner) {
        throw new AppError(
          409,
          'webhook.limit_reached',
          `At most ${WEBHOOK_LIMITS.endpointsPerPartner} webhooks per partner`,
        );
      }
      return WebhookEndpoint.create(
        {
          id,
          partner_id: partnerId,
          url: input.url,
          events: JSON.stringify(input.events),
          secret_sealed: sealSecret(secretKey, secret, id),
          secret_hint: secret.slice(-4),
          active: input.active ?? true,
          disabled_reason: null,
          created_at: now,
          updated_at: now,
        },
        { transaction },
      );
    });
    await audit.recordSafely({
      event: 'partner.webhook_created',
      partnerId,
      ...origin,
      details: { webhook_id: row.id, url: row.url, events: input.events },
    });
    return presentWebhook(row, secret);
  }

  async function update(partnerId: string, id: string, input: UpdateWebhookBody, origin: RequestOrigin) {
    const row = await owned(partnerId, id);
    if (input.url !== undefined) {
      checkUrl(input.url);
      row.url = input.url;
    }
    if (input.events !== undefined) row.events = JSON.stringify(input.events);
    if (input.active !== undefined) {
      row.active = input.active;
      if (input.active) row.disabled_reason = null;
    }
    let secret: string | undefined;
    if (input.secret !== undefined || input.rotate_secret) {
      secret = input.secret ?? generateSecret();
      row.secret_sealed = sealSecret(secretKey, secret, row.id);
      row.secret_hint = secret.slice(-4);
    }
    row.updated_at = clock.now();
    await row.save();
    await audit.recordSafely({
      event: secret ? 'partner.webhook_secret_rotated' : 'partner.webhook_updated',
      partnerId,
      ...origin,
      details: { webhook_id: row.id, url: row.url, events: JSON.parse(row.events), active: row.active },
    });
    return presentWebhook(row, secret);
  }

  async function remove(partnerId: string, id: string, origin: RequestOrigin) {
    const row = await owned(partnerId, id);
    await db.sequelize.transaction(async (transaction) => {
      const deliveries = WebhookDelivery.findAll({
        where: { endpoint_id: row.id },
        attributes: ['id'],
        transaction,
      });
      await WebhookAttempt.destroy({
        where: { delivery_id: (await deliveries).map((delivery) => delivery.id) },
        transaction,
      });
      await WebhookDelivery.destroy({ where: { endpoint_id: row.id }, transaction });
      await row.destroy({ transaction });
    });
    await audit.recordSafely({
      event: 'partner.webhook_deleted',
      partnerId,
      ...origin,
      details: { webhook_id: row.id, url: row.url },
    });
  }

  /** POST /partners/webhooks/{id}/test: a signed `ping` sent at once; answers with the outcome (no retries). */
  async function test(partnerId: string, id: string) {
    const endpoint = await owned(partnerId, id);
    checkUrl(endpoint.url);
    const now = clock.now();
    const eventId = randomUUID();
    const deliveryId = randomUUID();
    const payload = JSON.stringify({
      id: eventId,
      event: 'ping',
      type: 'ping',
      timestamp: now.toISOString(),
      data: { webhook_id: endpoint.id, partner_id: partnerId, message: 'Attestly webhook test' },
    });
    await db.sequelize.transaction(async (transaction) => {
      await EventOutbox.create(
        {
          id: eventId,
          partner_id: partnerId,
          event: 'ping',
          payload,
          created_at: now,
          available_at: now,
          locked_until: null,
          delivered_at: null,
          last_error: null,
        },
        { transaction },
      );
      await WebhookDelivery.create(
        {
          id: deliveryId,
          event_id: eventId,
          endpoint_id: endpoint.id,
          partner_id: partnerId,
          event: 'ping',
          status: 'pending',
          attempts: 1,
          next_attempt_at: now,
          give_up_at: now,
          locked_until: new Date(now.getTime() + CLAIM_LEASE_MS),
          locked_by: worker.claimOwner(),
          last_status_code: null,
          created_at: now,
          delivered_at: null,
          updated_at: now,
        },
        { transaction },
      );
    });
    const { result } = await worker.sendNow(
      { id: deliveryId, event_id: eventId, endpoint_id: endpoint.id, attempts: 1, give_up_at: now },
      { retry: false },
    );
    return {
      success: result.ok,
      status_code: result.statusCode,
      latency_ms: result.latencyMs,
      error: result.error,
      response_excerpt: result.responseExcerpt,
      delivery: await deliveryView(deliveryId),
    };
  }

  const { deliveryView, deliveries, redeliver, prune } = createDeliveryLog(deps, { audit, owned, kick });

  return {
    emit: (event: WebhookEventInput, options: { transaction?: Transaction } = {}) =>
      emitWebhookEvent(deps, event, options),
    list,
    get: async (partnerId: string, id: string) => presentWebhook(await owned(partnerId, id)),
    create,
    update,
    remove,
    test,
    deliveries,
    redeliver,
    prune,
    /** The delivery job (jobs.ts): sends whatever is due; from then on new events are sent at once, too. */
    deliverDue: () => {
      live = true;
      return worker.deliverDue();
    },
    /** Delivers what is due without switching on immediate sending (tests drive the clock). */
    deliverDueOnce: () => worker.deliverDue(),
    close: () => http?.close(),
  };
}
export type WebhookService = ReturnType<typeof createWebhookService>;
export type { WebhookEvent };

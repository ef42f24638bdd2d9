import { Op, QueryTypes } from 'sequelize';
import { WEBHOOK_LIMITS } from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import type { WebhookEndpoint } from '../../../db/models/index';
import { AppError, notFound } from '../../../errors';
import type { AuditService } from '../../shared/audit/service';
import { pageOf } from '../../shared/paging/page';
import type { RequestOrigin } from '../../shared/sessions/service';
import { presentDelivery } from './presenters';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The delivery log of a partner's endpoints: viewing it, redelivering an event, and pruning old events. */
export function createDeliveryLog(
  { db, clock, config }: Pick<Deps, 'db' | 'clock' | 'config'>,
  {
    audit,
    owned,
    kick,
  }: {
    audit: AuditService;
    /** The partner's endpoint, or 404. */
    owned: (partnerId: string, id: string) => Promise<WebhookEndpoint>;
    /** Wakes the delivery worker (redelivered events go out at once). */
    kick: () => void;
  },
) {
  const { EventOutbox, WebhookDelivery, WebhookAttempt } = db.models;

  async function deliveryView(deliveryId: string) {
    const delivery = await WebhookDelivery.findByPk(deliveryId);
    if (!delivery) throw notFound('Delivery not found');
    const attempts = await WebhookAttempt.findAll({
      where: { delivery_id: deliveryId },
      order: [['attempt', 'ASC']],
    });
    return presentDelivery(delivery, attempts);
  }

  /** The delivery log of one endpoint, newest first, each with its attempts. */
  async function deliveries(partnerId: string, id: string, skip: number, limit: number) {
    const endpoint = await owned(partnerId, id);
    const { rows, total } = await pageOf(
      WebhookDelivery,
      {
        where: { endpoint_id: endpoint.id },
        order: [
          ['created_at', 'DESC'],
          ['id', 'ASC'],
        ],
      },
      { skip, limit },
    );
    const attempts = await WebhookAttempt.findAll({
      where: { delivery_id: { [Op.in]: rows.map((row) => row.id) } },
      order: [['attempt', 'ASC']],
    });
    return {
      deliveries: rows.map((row) =>
        presentDelivery(
          row,
          attempts.filter((attempt) => attempt.delivery_id === row.id),
        ),
      ),
      total_count: total,
    };
  }

  /**
   * Manual redelivery: the same event (same id, so receivers can deduplicate) goes back in the queue now, with a
   * fresh retry window. A delivery that a replica is sending right now cannot be redelivered until it settles.
   */
  async function redeliver(partnerId: string, id: string, deliveryId: string, origin: RequestOrigin) {
    const endpoint = await owned(partnerId, id);
    if (!UUID.test(deliveryId)) throw notFound('Delivery not found');
    if (!endpoint.active) {
      throw new AppError(409, 'webhook.inactive', 'Activate the webhook before redelivering events');
    }
    const now = clock.now();
    const changed = await db.sequelize.query(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = :now, give_up_at = :giveUp,
        locked_until = NULL, locked_by = NULL, updated_at = :now
        WHERE id = :id AND endpoint_id = :endpoint AND (locked_until IS NULL OR locked_until < :now)`,
      {
        replacements: {
          now,
          giveUp: new Date(now.getTime() + WEBHOOK_LIMITS.retryWindowMs),
          id: deliveryId,
          endpoint: endpoint.id,
        },
        type: QueryTypes.BULKUPDATE,
      },
    );
    if (Number(changed) === 0) {
      const exists = await WebhookDelivery.count({ where: { id: deliveryId, endpoint_id: endpoint.id } });
      if (!exists) throw notFound('Delivery not found');
      throw new AppError(409, 'webhook.delivery_in_flight', 'This delivery is being sent right now');
    }
    await audit.recordSafely({
      event: 'partner.webhook_redelivered',
      partnerId,
      ...origin,
      details: { webhook_id: endpoint.id, delivery_id: deliveryId },
    });
    kick();
    return deliveryView(deliveryId);
  }

  /**
   * Deletes events older than the retention period whose deliveries are all settled, with their deliveries and
   * attempt logs, so the outbox cannot grow without bound. Idempotent: safe on every replica.
   */
  async function prune(): Promise<number> {
    const cutoff = new Date(clock.now().getTime() - config.webhooks.retentionMs);
    const old = `SELECT id FROM event_outbox WHERE created_at < :cutoff AND NOT EXISTS (
      SELECT 1 FROM webhook_deliveries d WHERE d.event_id = event_outbox.id AND d.status = 'pending')`;
    return db.sequelize.transaction(async (transaction) => {
      const query = (sql: string) =>
        db.sequelize.query(sql, { replacements: { cutoff }, transaction, type: QueryTypes.DELETE });
      await query(
        `DELETE FROM webhook_attempts WHERE delivery_id IN (
          SELECT id FROM webhook_deliveries WHERE event_id IN (${old}))`,
      );
      await query(`DELETE FROM webhook_deliveries WHERE event_id IN (${old})`);
      const ids = (await db.sequelize.query(old, {
        replacements: { cutoff },
        transaction,
        type: QueryTypes.SELECT,
      })) as Array<{ id: string }>;
      if (ids.length === 0) return 0;
      await EventOutbox.destroy({ where: { id: ids.map((row) => row.id) }, transaction });
      return ids.length;
    });
  }

  return { deliveryView, deliveries, redeliver, prune };
}

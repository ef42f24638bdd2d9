import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { QueryTypes } from 'sequelize';
import { WEBHOOK_EVENT_ID_HEADER, WEBHOOK_SIGNATURE_HEADER } from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import { toDate } from '../../../db/rows';
import type { AuditService } from '../../shared/audit/service';
import type { SendResult, WebhookSender } from './sender';
import { openSecret, signatureHeader, webhookSecretKey } from './signing';

/** How long a replica's claim on a delivery lasts: well beyond the 10-second timeout of one attempt. */
export const CLAIM_LEASE_MS = 60_000;
const CLAIM_BATCH = 64;
const CONCURRENCY = 32;
const BACKOFF_BASE_MS = 10_000;
const BACKOFF_CAP_MS = 3600_000;

/**
 * Exponential backoff with jitter (AWS "equal jitter"): 10 s, 20 s, 40 s … capped at one hour, each drawn between
 * half and all of that step, so receivers that failed together are not retried together.
 */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const step = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + (step / 2) * random());
}

export interface ClaimedDelivery {
  id: string;
  event_id: string;
  endpoint_id: string;
  attempts: number;
  give_up_at: Date;
}

interface DeliveryTarget {
  id: string;
  payload: string;
  url: string;
  secret_sealed: string;
}

/**
 * The delivery worker (DESIGN.md §2, §6): claims due deliveries through the database — `FOR UPDATE SKIP LOCKED`
 * on PostgreSQL, the single writer on SQLite — with a lease, so that several replicas never send one delivery
 * twice; signs and POSTs each; records every attempt; schedules retries or gives up; disables endpoints that
 * answer 410 Gone.
 */
export function createDeliveryWorker(
  deps: Deps,
  { audit, sender }: { audit: AuditService; sender: WebhookSender },
) {
  const { db, clock, config, logger } = deps;
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const secretKey = webhookSecretKey(config.masterKey);
  const secrets = new Map<string, string>();
  const postgres = db.dialect === 'postgres';

  function secretFor(endpointId: string, sealed: string): string {
    const cacheKey = `${endpointId}:${sealed}`;
    let secret = secrets.get(cacheKey);
    if (secret === undefined) {
      if (secrets.size > 1000) secrets.clear();
      secret = openSecret(secretKey, sealed, endpointId);
      secrets.set(cacheKey, secret);
    }
    return secret;
  }

  /** Runs statements atomically: the hot-path writer on SQLite, a transaction on PostgreSQL. */
  async function writeAll(statements: Array<[string, Record<string, unknown>]>): Promise<number[]> {
    if (db.atomic) return db.atomic((sql) => statements.map(([text, params]) => sql.run(text, params)));
    return db.sequelize.transaction(async (transaction) => {
      const counts: number[] = [];
      for (const [text, params] of statements) {
        const changed = await db.sequelize.query(text, {
          replacements: params,
          transaction,
          type: QueryTypes.BULKUPDATE,
        });
        counts.push(Number(changed));
      }
      return counts;
    });
  }

  async function claim(limit: number): Promise<ClaimedDelivery[]> {
    const now = clock.now();
    const params = { now, lease: new Date(now.getTime() + CLAIM_LEASE_MS), owner, limit };
    const sql = `UPDATE webhook_deliveries SET locked_until = :lease, locked_by = :owner, attempts = attempts + 1,
        updated_at = :now
      WHERE id IN (
        SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.status = 'pending' AND d.next_attempt_at <= :now
          AND (d.locked_until IS NULL OR d.locked_until < :now) AND e.active = ${postgres ? 'true' : '1'}
        ORDER BY d.next_attempt_at LIMIT :limit ${postgres ? 'FOR UPDATE OF d SKIP LOCKED' : ''})
      RETURNING id, event_id, endpoint_id, attempts, give_up_at`;
    const rows = db.atomic
      ? await db.atomic((statements) => statements.all<Record<string, unknown>>(sql, params))
      : ((await db.sequelize.query(sql, { replacements: params, type: QueryTypes.SELECT })) as Array<
          Record<string, unknown>
        >);
    return rows.map((row) => ({
      id: row.id as string,
      event_id: row.event_id as string,
      endpoint_id: row.endpoint_id as string,
      attempts: Number(row.attempts),
      give_up_at: toDate(row.give_up_at) as Date,
    }));
  }

  async function targets(ids: string[]): Promise<Map<string, DeliveryTarget>> {
    const params: Record<string, unknown> = {};
    const names = ids.map((id, index) => {
      params[`id${index}`] = id;
      return `:id${index}`;
    });
    const rows = await db.read<DeliveryTarget & { endpoint_id: string }>(
      `SELECT d.id, d.endpoint_id, o.payload, e.url, e.secret_sealed FROM webhook_deliveries d
        JOIN event_outbox o ON o.id = d.event_id JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.id IN (${names.join(', ')})`,
      params,
    );
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Signs and sends one delivery's event (the same event id on every attempt, so receivers can deduplicate). */
  async function send(
    target: DeliveryTarget & { endpoint_id: string },
    eventId: string,
  ): Promise<SendResult> {
    const secret = secretFor(target.endpoint_id, target.secret_sealed);
    const timestamp = Math.floor(clock.now().getTime() / 1000);
    return sender({
      url: target.url,
      body: target.payload,
      headers: {
        [WEBHOOK_SIGNATURE_HEADER]: signatureHeader(secret, timestamp, target.payload),
        [WEBHOOK_EVENT_ID_HEADER]: eventId,
      },
    });
  }

  /**
   * Records the attempt and moves the delivery on: success, a retry after backoff, or failure (retry window spent,
   * or 410 Gone, which also switches the endpoint off). Only the claim's owner may write the outcome.
   */
  async function settle(
    delivery: ClaimedDelivery,
    result: SendResult,
    options: { retry: boolean } = { retry: true },
  ): Promise<'succeeded' | 'pending' | 'failed'> {
    const now = clock.now();
    const gone = result.statusCode === 410;
    const next = new Date(now.getTime() + backoffMs(delivery.attempts));
    const status = result.ok
      ? 'succeeded'
      : gone || !options.retry || next > delivery.give_up_at
        ? 'failed'
        : 'pending';
    const statements: Array<[string, Record<string, unknown>]> = [
      [
        `UPDATE webhook_deliveries SET status = :status, last_status_code = :code, locked_until = NULL,
          locked_by = NULL, next_attempt_at = :next, delivered_at = :delivered, updated_at = :now
          WHERE id = :id AND locked_by = :owner`,
        {
          status,
          code: result.statusCode,
          next: status === 'pending' ? next : null,
          delivered: status === 'succeeded' ? now : null,
          now,
          id: delivery.id,
          owner,
        },
      ],
      [
        `INSERT INTO webhook_attempts (id, delivery_id, attempt, status_code, error, latency_ms, response_excerpt,
          created_at) VALUES (:id, :delivery, :attempt, :code, :error, :latency, :excerpt, :now)`,
        {
          id: randomUUID(),
          delivery: delivery.id,
          attempt: delivery.attempts,
          code: result.statusCode,
          error: result.error,
          latency: result.latencyMs,
          excerpt: result.responseExcerpt,
          now,
        },
      ],
    ];
    if (gone) {
      statements.push([
        `UPDATE webhook_endpoints SET active = :inactive, disabled_reason = :reason, updated_at = :now
          WHERE id = :id AND active = :active`,
        {
          inactive: false,
          active: true,
          reason: 'The receiver answered 410 Gone',
          now,
          id: delivery.endpoint_id,
        },
      ]);
    }
    const [settled = 0, , disabled = 0] = await writeAll(statements);
    if (settled === 0) logger.warn({ delivery: delivery.id }, 'webhook delivery claim lost before settling');
    if (gone && disabled > 0) {
      const endpoint = await db.models.WebhookEndpoint.findByPk(delivery.endpoint_id, {
        attributes: ['partner_id', 'url'],
      });
      await audit.recordSafely({
        event: 'partner.webhook_disabled',
        severity: 'warning',
        partnerId: endpoint?.partner_id ?? null,
        details: { webhook_id: delivery.endpoint_id, url: endpoint?.url, reason: '410 Gone' },
      });
    }
    return status;
  }

  let running: Promise<number> | null = null;
  let again = false;

  /** Delivers everything due, `CONCURRENCY` at a time, until nothing is due; one run per process at a time. */
  async function runOnce(): Promise<number> {
    let delivered = 0;
    const queue: Array<ClaimedDelivery & { target: DeliveryTarget & { endpoint_id: string } }> = [];
    let exhausted = false;
    let refilling: Promise<void> | null = null;
    const refill = () => {
      refilling ??= (async () => {
        const claimed = await claim(CLAIM_BATCH);
        if (claimed.length === 0) {
          exhausted = true;
          return;
        }
        const found = await targets(claimed.map((row) => row.id));
        for (const row of claimed) {
          const target = found.get(row.id) as (DeliveryTarget & { endpoint_id: string }) | undefined;
          if (target) queue.push({ ...row, target });
        }
      })().finally(() => (refilling = null));
      return refilling;
    };
    const lane = async () => {
      for (;;) {
        const next = queue.shift();
        if (next) {
          const result = await send(next.target, next.event_id);
          await settle(next, result);
          delivered += 1;
          continue;
        }
        if (exhausted) return;
        await refill();
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
    return delivered;
  }

  function deliverDue(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      do {
        again = false;
        total += await runOnce();
      } while (again);
      return total;
    })().finally(() => (running = null));
    return running;
  }

  /** Sends one claimed delivery now and settles it (the test ping: no retries). */
  async function sendNow(delivery: ClaimedDelivery, options: { retry: boolean }) {
    const found = await targets([delivery.id]);
    const target = found.get(delivery.id) as DeliveryTarget & { endpoint_id: string };
    const result = await send(target, delivery.event_id);
    const status = await settle(delivery, result, options);
    return { result, status };
  }

  /** Claims one specific delivery for this replica (the test ping, created already claimed, skips this). */
  function claimOwner() {
    return owner;
  }

  return { deliverDue, sendNow, claimOwner };
}
export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;

/**
 * Webhooks and quota benchmark (issue 11): signed deliveries per second to a local receiver, event-to-delivery
 * latency (p50/p99) while verifications are being recorded, and the cost of the quota check. Runs in-process on a
 * fresh SQLite database; `npm run bench` calls runWebhooksBench, or run this file alone with tsx.
 */
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { verifyWebhook } from '../../sdk/src/webhooks';
import { bootstrap } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { startJobs } from '../src/jobs';
import { createLogger } from '../src/logger';
import { createServices } from '../src/services';
import { emitWebhookEvent } from '../src/modules/partners/webhooks/service';
import { webhookJobs } from '../src/modules/partners/webhooks/jobs';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runWebhooksBench(): Promise<Record<string, number>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'attestly-webhooks-bench-'));
  const received = new Map<string, number>();
  let invalid = 0;
  let secret = '';
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        verifyWebhook(String(request.headers['attestly-signature']), Buffer.concat(chunks), secret);
        received.set(String(request.headers['attestly-event-id']), performance.now());
      } catch {
        invalid += 1;
      }
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const config = loadConfig({
    ATTESTLY_DATA_DIR: dataDir,
    ATTESTLY_PASSWORD_COST: '10',
    ATTESTLY_WEBHOOK_ALLOWLIST: new URL(url).host,
    LOG_LEVEL: 'silent',
  });
  const deps = await bootstrap(config, createLogger(config));
  const services = createServices(deps);
  const { Partner, User } = deps.db.models;
  try {
    const partner = await Partner.create({
      email: 'bench-partner@example.com',
      password_hash: 'x',
      company_name: 'Bench',
    } as never);
    const endpoint = await services.webhooks.create(
      partner.id,
      { url, events: ['verification.completed', 'token.revoked'] },
      { ip: null, userAgent: null } as never,
    );
    secret = endpoint.secret as string;
    const user = await User.create({
      email: 'bench-user@example.com',
      password_hash: 'x',
      full_name: 'Bench User',
    } as never);

    // 1. Throughput: a backlog of events, delivered by one worker as fast as it can.
    const backlog = 3000;
    for (let batch = 0; batch < backlog / 100; batch += 1) {
      await deps.db.sequelize.transaction(async (transaction) => {
        for (let i = 0; i < 100; i += 1) {
          await emitWebhookEvent(
            deps,
            { partnerId: partner.id, type: 'token.revoked', data: { token_id: `t-${batch}-${i}` } },
            { transaction },
          );
        }
      });
    }
    const started = performance.now();
    await services.webhooks.deliverDueOnce();
    const elapsed = (performance.now() - started) / 1000;
    const throughput = received.size / elapsed;

    // 2. Latency: the delivery job runs as on a server; events arrive at 100/s while verifications are recorded.
    received.clear();
    const stop = startJobs(webhookJobs(services), deps.logger);
    const emittedAt = new Map<string, number>();
    let verifications = 0;
    let running = true;
    const load = (async () => {
      while (running) {
        await services.verifications.record(
          {
            userId: user.id,
            type: 'age',
            method: 'credit_card',
            status: 'approved',
            confidence: 0.9,
            ageThreshold: 18,
            message: 'bench',
            details: {},
          },
          { ip: null, userAgent: null } as never,
        );
        verifications += 1;
      }
    })();
    const seconds = 10;
    for (let tick = 0; tick < seconds * 10; tick += 1) {
      const at = performance.now();
      for (let i = 0; i < 10; i += 1) {
        const id = await emitWebhookEvent(deps, {
          partnerId: partner.id,
          type: 'verification.completed',
          data: { verification_id: `v-${tick}-${i}` },
        });
        emittedAt.set(id, performance.now());
      }
      await sleep(Math.max(0, 100 - (performance.now() - at)));
    }
    const deadline = Date.now() + 15_000;
    while (received.size < emittedAt.size && Date.now() < deadline) await sleep(50);
    running = false;
    await load;
    stop();
    const latencies = [...emittedAt]
      .map(([id, at]) => (received.get(id) ?? Infinity) - at)
      .sort((a, b) => a - b);

    // 3. The quota check a partner verification adds.
    const samples: number[] = [];
    for (let i = 0; i < 2000; i += 1) await services.billing.checkQuota(partner.id);
    for (let i = 0; i < 20_000; i += 1) {
      const at = performance.now();
      await services.billing.checkQuota(partner.id);
      samples.push(performance.now() - at);
    }
    samples.sort((a, b) => a - b);
    // The atomic count a partner's verification adds to its transaction (conditional upsert): the same transaction
    // timed with and without it, interleaved, so that the commit itself is not counted.
    await services.billing.setPartnerPlan(partner.id, 'scale');
    const counts: number[] = [];
    const { sequelize } = deps.db;
    for (let i = 0; i < 1000; i += 1) {
      let at = performance.now();
      await sequelize.transaction(async (transaction) => {
        await sequelize.query('SELECT 1', { transaction });
      });
      const base = performance.now() - at;
      at = performance.now();
      await sequelize.transaction(async (transaction) => {
        await sequelize.query('SELECT 1', { transaction });
        await services.billing.recordUsage(partner.id, transaction);
      });
      counts.push(performance.now() - at - base);
    }
    counts.sort((a, b) => a - b);

    return {
      deliveries_per_second: Math.round(throughput),
      backlog_deliveries: backlog,
      invalid_signatures: invalid,
      event_to_delivery_p50_ms: Math.round(percentile(latencies, 50)),
      event_to_delivery_p99_ms: Math.round(percentile(latencies, 99)),
      events_during_load: emittedAt.size,
      undelivered_during_load: latencies.filter((value) => !Number.isFinite(value)).length,
      verifications_recorded_during_load: verifications,
      quota_check_mean_us: Math.round(
        (samples.reduce((sum, value) => sum + value, 0) / samples.length) * 1000,
      ),
      quota_check_p99_us: Math.round(percentile(samples, 99) * 1000),
      quota_count_median_us: Math.round(percentile(counts, 50) * 1000),
      quota_count_p90_us: Math.round(percentile(counts, 90) * 1000),
    };
  } finally {
    services.webhooks.close();
    await deps.db.close();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runWebhooksBench().then(
    (figures) => {
      console.table(Object.fromEntries(Object.entries(figures).map(([key, value]) => [key, { value }])));
      console.log(JSON.stringify({ webhooks: figures }));
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

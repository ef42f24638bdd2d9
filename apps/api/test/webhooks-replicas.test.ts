import { randomBytes } from 'node:crypto';
import path from 'node:path';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../src/db/database';
import { systemClock } from '../src/lib/clock';
import { emitWebhookEvent } from '../src/modules/partners/webhooks/service';
import { createTestDatabase } from './helpers';
import { registerPartner } from './oidc-helpers';
import { startServerProcess, type ServerProcess, stopProcess } from './server-process';
import { startReceiver } from './webhook-receiver';

/**
 * DESIGN.md §2: two real API processes on one database (the same SQLite file, or with TEST_DATABASE_URL one
 * PostgreSQL database) both run the delivery job; every event must reach the receiver exactly once.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let db: Database;
const replicas: ServerProcess[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startReceiver();
  // A slow receiver keeps deliveries in flight while the other replica looks for work.
  receiver.state.delayMs = 20;
  const env = {
    ATTESTLY_DATA_DIR: database.dataDir,
    DATABASE_URL: database.url ?? '',
    ATTESTLY_MASTER_KEY: randomBytes(32).toString('hex'),
    ATTESTLY_PASSWORD_COST: '12',
    ATTESTLY_VISION: 'false',
    ATTESTLY_WEB_DIR: path.join(database.dataDir, 'no-web'),
    ATTESTLY_WEBHOOK_ALLOWLIST: new URL(receiver.url).host,
    // No mail capture here: partners start active instead of waiting for their e-mail link.
    ATTESTLY_PARTNER_INITIAL_STATUS: 'active',
  };
  replicas.push(await startServerProcess(env));
  replicas.push(await startServerProcess(env));
  db = await createDatabase({ databaseUrl: database.url, dataDir: database.dataDir });
}, 120_000);

afterAll(async () => {
  await Promise.all(replicas.map((replica) => stopProcess(replica.child)));
  await db?.close();
  await receiver?.close();
  await database?.drop();
});

describe('webhook delivery from two processes', () => {
  it('delivers each of 120 events exactly once, every one signed', async () => {
    const [a] = replicas;
    const request = supertest(`http://127.0.0.1:${a?.port}`);
    const partner = await registerPartner({ request });
    const created = await request
      .post('/api/v1/partners/webhooks')
      .set('Authorization', `Bearer ${partner.token}`)
      .send({ url: receiver.url, events: ['token.revoked'] })
      .expect(201);
    receiver.state.secret = created.body.secret as string;

    const ids: string[] = [];
    for (let batch = 0; batch < 6; batch += 1) {
      const emitted = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          emitWebhookEvent(
            { db, clock: systemClock },
            {
              partnerId: partner.partner.id,
              type: 'token.revoked',
              data: { token_id: `grant-${batch}-${index}` },
            },
          ),
        ),
      );
      ids.push(...emitted);
    }
    await receiver.waitFor(ids.length, 30_000);
    // Give a double delivery time to show up.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(receiver.received).toHaveLength(ids.length);
    expect(new Set(receiver.received.map((delivery) => delivery.eventId))).toEqual(new Set(ids));
    expect(receiver.received.every((delivery) => delivery.verified)).toBe(true);
    const settled = await db.models.WebhookDelivery.count({ where: { status: 'succeeded' } });
    expect(settled).toBe(ids.length);
    const attempts = await db.models.WebhookAttempt.count();
    expect(attempts).toBe(ids.length);
  }, 60_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_API_KEYS, MAX_SITES, WEBHOOK_LIMITS } from '@attestly/contracts';
import { createTestApp, type TestApp } from './helpers';
import { registerPartner } from './oidc-helpers';

/**
 * Per-partner count limits hold under racing requests (issue 21 item 8): the count and the insert happen under the
 * partner's lock in the database, so 40 parallel creates store exactly the limit, on SQLite and on PostgreSQL.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const PARALLEL = 40;

async function count(sql: string, partnerId: string): Promise<number> {
  const [rows] = await t.db.sequelize.query(sql, { replacements: { partnerId } });
  return Number((rows as Array<{ n: number | string }>)[0]?.n);
}

/** The statuses of PARALLEL requests sent together, counted by status. */
async function race(send: (index: number) => PromiseLike<{ status: number }>) {
  const answers = await Promise.all(Array.from({ length: PARALLEL }, (_, index) => send(index)));
  const byStatus: Record<number, number> = {};
  for (const answer of answers) byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
  return byStatus;
}

describe('per-partner limits under racing requests', () => {
  it(`stores exactly ${WEBHOOK_LIMITS.endpointsPerPartner} webhooks when ${PARALLEL} creates race`, async () => {
    const partner = await registerPartner(t);
    const statuses = await race((index) =>
      t.request
        .post('/api/v1/partners/webhooks')
        .set(auth(partner.token))
        .send({ url: `https://hooks.example.com/race/${index}`, events: ['token.revoked'] }),
    );
    expect(statuses).toEqual({
      201: WEBHOOK_LIMITS.endpointsPerPartner,
      409: PARALLEL - WEBHOOK_LIMITS.endpointsPerPartner,
    });
    expect(
      await count(
        'SELECT COUNT(*) AS n FROM webhook_endpoints WHERE partner_id = :partnerId',
        partner.partner.id,
      ),
    ).toBe(WEBHOOK_LIMITS.endpointsPerPartner);
    const refused = await t.request
      .post('/api/v1/partners/webhooks')
      .set(auth(partner.token))
      .send({ url: 'https://hooks.example.com/one-more', events: ['token.revoked'] })
      .expect(409);
    expect(refused.body).toMatchObject({
      code: 'webhook.limit_reached',
      detail: `At most ${WEBHOOK_LIMITS.endpointsPerPartner} webhooks per partner`,
      request_id: expect.any(String),
    });
  });

  it(`stores exactly ${MAX_API_KEYS} API keys when ${PARALLEL} creates race`, async () => {
    const partner = await registerPartner(t);
    const statuses = await race((index) =>
      t.request
        .post('/api/v1/partners/api-keys')
        .set(auth(partner.token))
        .send({ environment: index % 2 ? 'live' : 'sandbox' }),
    );
    expect(statuses).toEqual({ 201: MAX_API_KEYS, 409: PARALLEL - MAX_API_KEYS });
    const active = 'SELECT COUNT(*) AS n FROM api_keys WHERE partner_id = :partnerId AND revoked_at IS NULL';
    expect(await count(active, partner.partner.id)).toBe(MAX_API_KEYS);
    expect(
      await count('SELECT COUNT(*) AS n FROM api_keys WHERE partner_id = :partnerId', partner.partner.id),
    ).toBe(MAX_API_KEYS);
  });

  it('keeps the API key limit when regenerations race with creates', async () => {
    const partner = await registerPartner(t);
    const keys: string[] = [];
    for (let i = 0; i < MAX_API_KEYS; i += 1) {
      const created = await t.request
        .post('/api/v1/partners/api-keys')
        .set(auth(partner.token))
        .send({ environment: 'live' })
        .expect(201);
      keys.push(created.body.id as string);
    }
    // Each regeneration frees a slot for a moment; a create slipping in then would make eleven keys.
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, index) =>
        index < MAX_API_KEYS
          ? t.request.post(`/api/v1/partners/api-keys/${keys[index]}/regenerate`).set(auth(partner.token))
          : t.request
              .post('/api/v1/partners/api-keys')
              .set(auth(partner.token))
              .send({ environment: 'live' }),
      ),
    );
    expect(answers.slice(0, MAX_API_KEYS).map((answer) => answer.status)).toEqual(
      Array.from({ length: MAX_API_KEYS }, () => 200),
    );
    expect(new Set(answers.slice(MAX_API_KEYS).map((answer) => answer.status))).toEqual(new Set([409]));
    const active = 'SELECT COUNT(*) AS n FROM api_keys WHERE partner_id = :partnerId AND revoked_at IS NULL';
    expect(await count(active, partner.partner.id)).toBe(MAX_API_KEYS);
  });

  it(`stores exactly ${MAX_SITES} sites when the last ${PARALLEL} creates race`, async () => {
    const partner = await registerPartner(t);
    const origin = { ip: null, userAgent: null };
    const site = (name: string) => ({
      site_name: name,
      domain: 'shop.example.com',
      redirect_uris: ['https://shop.example.com/callback'],
      allowed_scopes: ['basic_info' as const],
      description: null,
      client_type: 'public' as const,
    });
    const before = MAX_SITES - PARALLEL / 2;
    for (let i = 0; i < before; i += 1) {
      await t.services.sites.create(partner.partner.id, site(`Existing ${i}`), origin);
    }
    const statuses = await race((index) =>
      t.request
        .post('/api/v1/partners/sites')
        .set(auth(partner.token))
        .send(site(`Racing ${index}`)),
    );
    expect(statuses).toEqual({ 201: MAX_SITES - before, 409: PARALLEL - (MAX_SITES - before) });
    const live = 'SELECT COUNT(*) AS n FROM sites WHERE partner_id = :partnerId AND deleted_at IS NULL';
    expect(await count(live, partner.partner.id)).toBe(MAX_SITES);
    const refused = await t.request
      .post('/api/v1/partners/sites')
      .set(auth(partner.token))
      .send(site('One more'))
      .expect(409);
    expect(refused.body).toMatchObject({
      code: 'sites.limit',
      detail: `You can have at most ${MAX_SITES} sites. Delete one you no longer use first.`,
    });
    // A deleted site frees its place.
    const list = await t.request.get('/api/v1/partners/sites?limit=1').set(auth(partner.token)).expect(200);
    await t.request
      .delete(`/api/v1/partners/sites/${list.body.sites[0].id as string}`)
      .set(auth(partner.token))
      .expect(204);
    await t.request
      .post('/api/v1/partners/sites')
      .set(auth(partner.token))
      .send(site('One more'))
      .expect(201);
  });
});

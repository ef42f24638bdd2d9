import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, onPostgres, type TestApp } from './helpers';

const METRICS_TOKEN = 'metrics-token-for-the-health-test';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { ATTESTLY_METRICS_TOKEN: METRICS_TOKEN } });
});
afterAll(async () => {
  await t.close();
});

describe('health endpoints', () => {
  it('reports liveness', async () => {
    const response = await t.request.get('/healthz').expect(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('reports readiness with the database and migrations checked', async () => {
    const response = await t.request.get('/readyz').expect(200);
    expect(response.body.status).toBe('ready');
    expect(response.body.checks.database).toEqual({ ok: true, dialect: onPostgres ? 'postgres' : 'sqlite' });
    expect(response.body.checks.migrations).toEqual({ ok: true, pending: [] });
  });

  it('is not ready when a migration is pending', async () => {
    await t.db.sequelize.query(
      "DELETE FROM attestly_migrations WHERE name = '20261125000200-create-newsletter'",
    );
    const response = await t.request.get('/readyz').expect(503);
    expect(response.body.checks.migrations.pending).toEqual(['20261125000200-create-newsletter']);
    await t.db.sequelize.query(
      "INSERT INTO attestly_migrations (name) VALUES ('20261125000200-create-newsletter')",
    );
    await t.request.get('/readyz').expect(200);
  });

  it('exposes Prometheus metrics labelled by route template', async () => {
    await t.request.get('/api/v1/users/profile').expect(401);
    const response = await t.request
      .get('/metrics')
      .set('Authorization', `Bearer ${METRICS_TOKEN}`)
      .expect(200);
    expect(response.headers['content-type']).toMatch(/text\/plain/);
    expect(response.text).toMatch(
      /attestly_http_requests_total\{method="GET",route="\/api\/v1\/users\/profile",status="401"\} 1/,
    );
    expect(response.text).toMatch(
      /attestly_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/api\/v1\/users\/profile",status="401"\}/,
    );
    expect(response.text).toMatch(/attestly_db_pool_connections\{state="size"\} \d+/);
  });

  it('refuses /metrics without the bearer token, or with a wrong one', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-of-some-length', `Basic ${METRICS_TOKEN}`]) {
      const request = t.request.get('/metrics');
      if (authorization) request.set('Authorization', authorization);
      const response = await request.expect(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(response.body).toMatchObject({ code: 'auth.unauthenticated' });
      expect(response.text).not.toContain('attestly_http_requests_total');
    }
  });

  it('has no /metrics at all when no token is configured (the default)', async () => {
    const plain = await createTestApp();
    try {
      const response = await plain.request.get('/metrics').expect(404);
      expect(response.body).toMatchObject({ code: 'not_found' });
      expect(response.text).not.toContain('process_cpu');
      await plain.request.get('/healthz').expect(200);
    } finally {
      await plain.close();
    }
  });

  it('answers beside the API, whose paths match in their own case only', async () => {
    await t.request.get('/healthz').expect(200);
    const route = await t.request.get('/api/v1/users/profile').expect(401);
    expect(route.body).toMatchObject({ code: 'auth.missing_token' });
    // No alias of a route in another case (a proxy rule for /api/v1/admin would not see /API/V1/ADMIN): the API's 404.
    for (const path of ['/API/V1/users/profile', '/api/v1/USERS/profile', '/Api/v1/admin/users']) {
      const response = await t.request.get(path).expect(404);
      expect(response.body).toMatchObject({ code: 'not_found' });
    }
  });

  it('echoes a well-formed X-Request-Id and replaces a malformed one', async () => {
    const kept = await t.request.get('/healthz').set('X-Request-Id', 'abc-123').expect(200);
    expect(kept.headers['x-request-id']).toBe('abc-123');
    const replaced = await t.request.get('/healthz').set('X-Request-Id', 'bad id with spaces').expect(200);
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

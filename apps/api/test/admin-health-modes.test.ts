import { existsSync } from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSystemHealthSchema } from '@attestly/contracts';
import { createAdmin } from './admin-helpers';
import { createTestApp, type TestApp } from './helpers';

/**
 * The back office's health panel on an install without SMTP and without Stripe (issue 25 item 10): mail to the
 * outbox folder and billing off are supported modes, and the counts are of the rows the panel lists.
 */
let t: TestApp;
let token: string;
beforeAll(async () => {
  // An empty SMTP URL: mail goes to <data dir>/outbox (notifications/mailer.ts).
  t = await createTestApp({ env: { ATTESTLY_SMTP_URL: '' } });
  token = (await createAdmin(t)).token;
});
afterAll(async () => {
  await t?.close();
});

describe('system health without SMTP or Stripe', () => {
  it('reports mail to the outbox as healthy and billing as off, with notes instead of errors', async () => {
    expect(t.deps.config.smtpUrl).toBeFalsy();
    const { body } = await t.request
      .get('/api/v1/admin/system/health')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(v.safeParse(adminSystemHealthSchema, body).issues).toBeUndefined();
    const outbox = path.join(t.deps.config.dataDir, 'outbox');
    expect(body.services.mail).toEqual({
      status: 'healthy',
      error: null,
      note: `No SMTP server: each mail is written to ${outbox} as an .eml file`,
      details: { transport: 'outbox', path: outbox },
    });
    expect(body.services.stripe).toMatchObject({ status: 'off', error: null, note: /Billing is off/ });
    // Neither makes the whole degraded: only degraded or unhealthy services do.
    const bad = Object.values(body.services as Record<string, { status: string }>).filter((service) =>
      ['degraded', 'unhealthy'].includes(service.status),
    );
    expect(body.overall_status).toBe(bad.length ? 'degraded' : 'healthy');
    // Counted over every listed row; healthy and off are the working ones.
    const rows = Object.values(body.services as Record<string, { status: string }>);
    expect(body.metrics.total_services).toBe(rows.length);
    expect(body.metrics.healthy_services).toBe(
      rows.filter((service) => service.status === 'healthy' || service.status === 'off').length,
    );
    expect(body.metrics.healthy_services).toBeLessThanOrEqual(body.metrics.total_services);
  });

  it('really writes a mail into that folder', async () => {
    await t.request
      .post('/api/v1/users/register')
      .send({ full_name: 'Outbox Person', email: 'outbox@example.com', password: 'long enough password' })
      .expect(201);
    await t.services.users.whenIdle();
    expect(existsSync(path.join(t.deps.config.dataDir, 'outbox'))).toBe(true);
  });
});

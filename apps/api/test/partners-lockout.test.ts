import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCKOUT_MS } from '../src/modules/users/service';
import { createTestApp, randomClientIp, type TestApp } from './helpers';
import { registerPartner } from './oidc-helpers';

let t: TestApp;
beforeAll(async () => {
  // Cost 14: scrypt must dominate each sign-in for the timing comparison below to mean anything.
  t = await createTestApp({ env: { ATTESTLY_PASSWORD_COST: '14' } });
});
afterAll(async () => {
  await t?.close();
});

/** One client address per caller, so the per-IP sign-in limit (30 a minute) stays out of the way. */
function client() {
  const ip = randomClientIp();
  return (email: string, password: string) =>
    t.request.post('/api/v1/partners/login').set('X-Forwarded-For', ip).send({ email, password });
}

const shape = (response: {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}) => ({
  status: response.status,
  detail: response.body.detail,
  code: response.body.code,
  retryAfter: response.headers['retry-after'],
});

describe('partner sign-in with an unknown address', () => {
  it('answers every attempt exactly like a real account, including the 429 and its Retry-After', async () => {
    const { email: known } = await registerPartner(t);
    const unknown = `nobody-${randomBytes(5).toString('hex')}@example.com`;
    const [loginKnown, loginUnknown] = [client(), client()];
    for (let attempt = 1; attempt <= 7; attempt += 1) {
      const a = shape(await loginKnown(known, 'wrong password'));
      const b = shape(await loginUnknown(unknown, 'wrong password'));
      expect(b).toEqual(a);
      expect(a.status).toBe(attempt < 5 ? 401 : 429);
      t.clock.advance(10_000);
    }
    // Once the lock ends both count afresh: one more failure is a 401 again, for both.
    t.clock.advance(LOCKOUT_MS);
    const a = shape(await loginKnown(known, 'wrong password'));
    expect(a.status).toBe(401);
    expect(shape(await loginUnknown(unknown, 'wrong password'))).toEqual(a);
  });

  it('takes as long as a wrong password for a real account', async () => {
    const { email: known } = await registerPartner(t);
    const [loginKnown, loginUnknown] = [client(), client()];
    const timed = async (call: () => Promise<unknown>) => {
      const started = process.hrtime.bigint();
      await call();
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const knownTimes: number[] = [];
    const unknownTimes: number[] = [];
    // Three each (below the lockout), interleaved so that machine load hits both alike; medians compared.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const unknown = `timing-${randomBytes(5).toString('hex')}@example.com`;
      knownTimes.push(await timed(() => loginKnown(known, 'wrong password')));
      unknownTimes.push(await timed(() => loginUnknown(unknown, 'wrong password')));
    }
    const median = (values: number[]) => [...values].sort((x, y) => x - y)[1] as number;
    const ratio = median(unknownTimes) / median(knownTimes);
    expect(ratio).toBeGreaterThan(0.6);
    expect(ratio).toBeLessThan(1.6);
  });
});

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCKOUT_MS } from '../src/modules/users/accounts/service';
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
    const [loginKnown, loginUnknown] = [client(), client()];
    const timed = async (call: () => Promise<unknown>) => {
      const started = process.hrtime.bigint();
      await call();
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const knownTimes: number[] = [];
    const unknownTimes: number[] = [];
    // Two accounts, three attempts each (below the lockout), interleaved so that machine load hits both alike;
    // medians compared.
    for (const { email: known } of [await registerPartner(t), await registerPartner(t)]) {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const unknown = `timing-${randomBytes(5).toString('hex')}@example.com`;
        knownTimes.push(await timed(() => loginKnown(known, 'wrong password')));
        unknownTimes.push(await timed(() => loginUnknown(unknown, 'wrong password')));
      }
    }
    const median = (values: number[]) => [...values].sort((x, y) => x - y)[values.length >> 1] as number;
    const ratio = median(unknownTimes) / median(knownTimes);
    expect(ratio).toBeGreaterThan(0.6);
    expect(ratio).toBeLessThan(1.6);
  });
});

describe('partner sign-in lockout per account and client address', () => {
  it('locks only the stranger’s address out of a partner account; the partner still signs in', async () => {
    const { email, password } = await registerPartner(t);
    const stranger = client();
    for (let attempt = 1; attempt <= 4; attempt += 1)
      expect((await stranger(email, 'wrong password')).status).toBe(401);
    expect((await stranger(email, 'wrong password')).status).toBe(429);
    expect((await stranger(email, password)).status).toBe(429);
    expect((await client()(email, password)).status).toBe(200);
    const row = await t.db.models.Partner.findOne({ where: { email } });
    expect(row?.locked_until ?? null).toBeNull();
  });

  it('checks exactly five of ten concurrent wrong passwords, for a real and an unknown address alike', async () => {
    const { email: known } = await registerPartner(t);
    const unknown = `burst-${randomBytes(5).toString('hex')}@example.com`;
    const burst = (email: string) => {
      const login = client();
      return Promise.all(Array.from({ length: 10 }, () => login(email, 'wrong password')));
    };
    const [knownAnswers, unknownAnswers] = await Promise.all([burst(known), burst(unknown)]);
    const tally = (answers: Parameters<typeof shape>[0][]) =>
      answers.map((answer) => JSON.stringify(shape(answer))).sort();
    expect(knownAnswers.filter((answer) => answer.status === 401)).toHaveLength(4);
    expect(knownAnswers.filter((answer) => answer.status === 429)).toHaveLength(6);
    expect(tally(unknownAnswers)).toEqual(tally(knownAnswers));
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PHONE_VERIFICATION_BY_USER,
  PHONE_VERIFICATION_BY_USER_DAILY,
  SMS_BY_NUMBER,
  SMS_BY_NUMBER_DAILY,
} from '../src/modules/users/accounts/phone-budget';
import { createTestApp, signUp, type TestApp } from './helpers';

/**
 * Phone codes through an operator-configured SMS gateway (issue 16 item 15): a real local HTTP receiver plays the
 * provider, and the code it receives is the one that verifies the number.
 */
let gateway: Server;
const messages: Array<{ authorization: string | undefined; body: { to: string; text: string } }> = [];
let gatewayStatus = 200;
let t: TestApp;

beforeAll(async () => {
  gateway = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    request.on('end', () => {
      messages.push({ authorization: request.headers.authorization, body: JSON.parse(raw) });
      response.writeHead(gatewayStatus).end();
    });
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  t = await createTestApp({
    env: {
      ATTESTLY_SMS_WEBHOOK_URL: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/sms`,
      ATTESTLY_SMS_WEBHOOK_AUTHORIZATION: 'Basic YWNjb3VudDpzZWNyZXQ=',
    },
  });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => gateway.close(() => resolve()));
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('phone verification with an SMS gateway', () => {
  it('sends the code to the gateway, says it went by SMS, and the code verifies the number', async () => {
    const { token } = await signUp(t);
    const phone = '+44 7700 900456';
    const sent = await t.request
      .post('/api/v1/users/send-phone-verification')
      .set(bearer(token))
      .send({ phone })
      .expect(202);
    expect(sent.body).toEqual({ message: 'Verification code sent', delivery: 'sms' });
    const message = messages.at(-1)!;
    expect(message.authorization).toBe('Basic YWNjb3VudDpzZWNyZXQ=');
    expect(message.body.to).toBe(phone);
    const code = /\b(\d{6})\b/.exec(message.body.text)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    // The code went to the phone, not into the server log.
    expect(t.logs.lines.some((line) => JSON.stringify(line).includes(code as string))).toBe(false);
    const verified = await t.request
      .post('/api/v1/users/verify-phone')
      .set(bearer(token))
      .send({ code })
      .expect(200);
    expect(verified.body).toMatchObject({ phone, phone_verified_at: expect.any(String) });
  });

  it('answers 502 in the error envelope when the gateway refuses the message', async () => {
    gatewayStatus = 503;
    try {
      const { token } = await signUp(t);
      const refused = await t.request
        .post('/api/v1/users/send-phone-verification')
        .set(bearer(token))
        .send({ phone: '+44 7700 900789' })
        .expect(502);
      expect(refused.body).toMatchObject({
        code: 'phone.delivery_failed',
        detail: 'We could not send the code to your phone. Please try again later.',
        request_id: expect.any(String),
      });
    } finally {
      gatewayStatus = 200;
    }
  });
});

/** A fresh UK mobile number in the 07700 900xxx drama range, written as given. */
const freshNumber = () => `+44 7700 9${String(randomBytes(2).readUInt16BE(0) % 100000).padStart(5, '0')}`;
const digits = (phone: string) => phone.replace(/\D/g, '');
const sentTo = (phone: string) =>
  messages.filter((message) => digits(message.body.to) === digits(phone)).length;
/** Fixed windows: the daily ones start at midnight UTC, so each test of them starts a fresh day. */
function startOfNextDay() {
  const now = t.clock.now().getTime();
  t.clock.advance(SMS_BY_NUMBER_DAILY.windowMs - (now % SMS_BY_NUMBER_DAILY.windowMs) + 60_000);
}
const askCode = (token: string, phone: string) =>
  t.request.post('/api/v1/users/send-phone-verification').set(bearer(token)).send({ phone });

describe('how many codes a number and an account may receive (issue 21 item 5)', () => {
  it('sends one number at most five codes an hour, whoever asks, also when the requests race', async () => {
    const phone = freshNumber();
    const accounts = await Promise.all(Array.from({ length: 8 }, () => signUp(t)));
    const answers = await Promise.all(accounts.map(({ token }) => askCode(token, phone)));
    expect(SMS_BY_NUMBER.limit).toBe(5);
    expect(answers.filter((answer) => answer.status === 202)).toHaveLength(SMS_BY_NUMBER.limit);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(8 - SMS_BY_NUMBER.limit);
    for (const answer of refused) {
      expect(answer.body).toMatchObject({
        code: 'rate_limited',
        detail: 'Too many codes have been sent to this number. Please try again later.',
      });
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(sentTo(phone)).toBe(SMS_BY_NUMBER.limit);
    // The same number written differently is the same number.
    const [spaced] = accounts;
    const other = await askCode(spaced!.token, `0044${digits(phone).slice(2)}`);
    expect(other.status).toBe(429);
    expect(sentTo(phone)).toBe(SMS_BY_NUMBER.limit);
  });

  it('sends one number at most ten codes a day', async () => {
    startOfNextDay();
    const phone = freshNumber();
    let sent = 0;
    for (let hour = 0; hour < 3; hour += 1) {
      for (let request = 0; request < SMS_BY_NUMBER.limit; request += 1) {
        const { token } = await signUp(t);
        const answer = await askCode(token, phone);
        if (answer.status === 202) sent += 1;
        else expect(answer.status).toBe(429);
      }
      t.clock.advance(SMS_BY_NUMBER.windowMs);
    }
    expect(SMS_BY_NUMBER_DAILY.limit).toBe(10);
    expect(sent).toBe(SMS_BY_NUMBER_DAILY.limit);
    expect(sentTo(phone)).toBe(SMS_BY_NUMBER_DAILY.limit);
    t.clock.advance(SMS_BY_NUMBER_DAILY.windowMs);
    const { token } = await signUp(t);
    expect((await askCode(token, phone)).status).toBe(202);
  });

  it('sends one account at most ten codes a day, to any numbers', async () => {
    startOfNextDay();
    const { token } = await signUp(t);
    let sent = 0;
    for (let window = 0; window < 5; window += 1) {
      for (let request = 0; request < PHONE_VERIFICATION_BY_USER.limit; request += 1) {
        const answer = await askCode(token, freshNumber());
        if (answer.status === 202) sent += 1;
        else expect(answer.body.detail).toBe('Too many codes requested. Please wait before asking again.');
      }
      t.clock.advance(PHONE_VERIFICATION_BY_USER.windowMs);
    }
    expect(PHONE_VERIFICATION_BY_USER_DAILY.limit).toBe(10);
    expect(sent).toBe(PHONE_VERIFICATION_BY_USER_DAILY.limit);
  });

  it('counts an account’s racing requests exactly: three of eight are sent', async () => {
    const { token } = await signUp(t);
    const before = messages.length;
    const answers = await Promise.all(Array.from({ length: 8 }, () => askCode(token, freshNumber())));
    expect(answers.filter((answer) => answer.status === 202)).toHaveLength(PHONE_VERIFICATION_BY_USER.limit);
    expect(messages.length - before).toBe(PHONE_VERIFICATION_BY_USER.limit);
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../errors';
import type { MailMessage, Mailer } from './mailer';
import { createEmailPhoneNotifier, createWebhookPhoneNotifier, phoneCodeMessage } from './phone';

interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A real HTTP server standing in for the SMS provider: records requests, answers with the status a test sets. */
let server: Server;
let baseUrl: string;
const received: Received[] = [];
let answer = 200;
beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(answer, { 'Content-Type': 'application/json' }).end('{"id":"msg-1"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const logger = pino({ level: 'silent' });

describe('SMS webhook notifier', () => {
  it('posts the JSON template with the number, code and message filled in and the Authorization header', async () => {
    answer = 201;
    const notifier = createWebhookPhoneNotifier(
      {
        kind: 'webhook',
        url: `${baseUrl}/messages`,
        bodyTemplate: '{"to":"{{phone}}","body":"{{message}}","meta":{"code":"{{code}}"}}',
        contentType: 'application/json',
        authorization: 'Bearer gateway-secret',
      },
      logger,
    );
    await notifier.sendCode('+44 7700 900123', '123456');
    const request = received.at(-1)!;
    expect(request).toMatchObject({ method: 'POST', path: '/messages' });
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers.authorization).toBe('Bearer gateway-secret');
    expect(JSON.parse(request.body)).toEqual({
      to: '+44 7700 900123',
      body: phoneCodeMessage('123456'),
      meta: { code: '123456' },
    });
    expect(notifier.transport).toBe('webhook');
  });

  it('fills a form template with URL-encoded values', async () => {
    answer = 200;
    const notifier = createWebhookPhoneNotifier(
      {
        kind: 'webhook',
        url: `${baseUrl}/form`,
        bodyTemplate: 'To={{phone}}&Body={{message}}',
        contentType: 'application/x-www-form-urlencoded',
        authorization: null,
      },
      logger,
    );
    await notifier.sendCode('+1 (555) 010-0000', '654321');
    const request = received.at(-1)!;
    expect(request.headers.authorization).toBeUndefined();
    const form = new URLSearchParams(request.body);
    expect(form.get('To')).toBe('+1 (555) 010-0000');
    expect(form.get('Body')).toBe(phoneCodeMessage('654321'));
  });

  it('turns a refusal or an unreachable gateway into a 502 the user can act on', async () => {
    answer = 500;
    const gateway = {
      kind: 'webhook' as const,
      bodyTemplate: '{"to":"{{phone}}"}',
      contentType: 'application/json' as const,
      authorization: null,
    };
    const refused = createWebhookPhoneNotifier({ ...gateway, url: `${baseUrl}/down` }, logger);
    const error = await refused.sendCode('+44 7700 900123', '111111').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 502, code: 'phone.delivery_failed' });
    const closed = createWebhookPhoneNotifier({ ...gateway, url: 'http://127.0.0.1:1/nothing-here' }, logger);
    await expect(closed.sendCode('+44 7700 900123', '111111')).rejects.toMatchObject({ status: 502 });
  });
});

describe('e-mail-to-SMS notifier', () => {
  it('mails the code to <digits>@<gateway domain>', async () => {
    const sent: MailMessage[] = [];
    const mailer: Mailer = {
      transport: 'outbox',
      async send(message) {
        sent.push(message);
      },
    };
    const notifier = createEmailPhoneNotifier('sms.example.net', mailer, logger);
    await notifier.sendCode('+44 (0)7700-900123', '222333');
    expect(sent).toEqual([
      { to: '4407700900123@sms.example.net', subject: 'Attestly code', text: phoneCodeMessage('222333') },
    ]);
  });
});

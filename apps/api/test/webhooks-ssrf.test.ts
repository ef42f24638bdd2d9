import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  guardedLookup,
  isPublicAddress,
  parseAllowlist,
  urlProblem,
} from '../src/modules/webhooks/outbound-guard';
import { createWebhookSender } from '../src/modules/webhooks/sender';
import { loadConfig } from '../src/config';
import { startReceiver } from './webhook-receiver';

const PRIVATE = 'Webhook URL must not point at a private, loopback or link-local address';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

describe('outbound guard for webhook URLs (SSRF)', () => {
  it('refuses private, loopback, link-local, metadata and reserved addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.0.10',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it('checks URLs: https only, no private IP literals or local names unless listed', () => {
    const none = parseAllowlist([]);
    expect(urlProblem('https://hooks.example.com/x', none)).toBeNull();
    expect(urlProblem('http://hooks.example.com/x', none)).toBe('Webhook URL must use https');
    expect(urlProblem('https://127.0.0.1/x', none)).toBe(PRIVATE);
    // The WHATWG parser normalises other spellings of 127.0.0.1 before the check.
    expect(urlProblem('https://2130706433/x', none)).toBe(PRIVATE);
    expect(urlProblem('https://0x7f.1/x', none)).toBe(PRIVATE);
    expect(urlProblem('https://[::ffff:169.254.169.254]/x', none)).toBe(PRIVATE);
    expect(urlProblem('https://localhost/x', none)).toBe(PRIVATE);
    expect(urlProblem('https://metadata.google.internal/x', none)).toBe(PRIVATE);

    const listed = parseAllowlist(['hooks.internal', '10.0.0.0/8', '127.0.0.1']);
    expect(urlProblem('http://hooks.internal/x', listed)).toBeNull();
    expect(urlProblem('https://10.20.30.40/x', listed)).toBeNull();
    expect(urlProblem('http://10.20.30.40/x', listed)).toBeNull();
    expect(urlProblem('http://127.0.0.1:8080/x', listed)).toBeNull();
    expect(urlProblem('https://192.168.1.1/x', listed)).toBe(PRIVATE);
    expect(urlProblem('http://hooks.example.com/x', listed)).toBe('Webhook URL must use https');
  });

  it('refuses at connect time a host name that resolves to a private address', async () => {
    const lookup = guardedLookup(parseAllowlist([]));
    const port = new URL(receiver.url).port;
    const error = await new Promise<Error & { code?: string }>((resolve) => {
      const request = http.request(`http://localhost:${port}/hooks`, { method: 'POST', lookup }, () =>
        resolve(new Error('connected')),
      );
      request.on('error', resolve);
      request.end('{}');
    });
    expect(error.code).toBe('EOUTBOUNDREFUSED');
    expect(receiver.received).toHaveLength(0);

    // Listed by name, the same host is reachable.
    const allowed = guardedLookup(parseAllowlist(['localhost']));
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(
        `http://localhost:${port}/hooks`,
        { method: 'POST', lookup: allowed, family: 4 },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.end('{}');
    });
    expect(status).toBe(200);
  });

  it('sends nothing to a private target through the webhook sender', async () => {
    const sender = createWebhookSender(parseAllowlist([]));
    try {
      const port = new URL(receiver.url).port;
      const before = receiver.received.length;
      for (const url of [
        `http://127.0.0.1:${port}/hooks`,
        `https://127.0.0.1:${port}/hooks`,
        `https://localhost:${port}/hooks`,
      ]) {
        const result = await sender.send({ url, body: '{}', headers: {} });
        expect(result.ok).toBe(false);
        expect(result.statusCode).toBeNull();
      }
      expect(receiver.received.length).toBe(before);
    } finally {
      sender.close();
    }
  });
});

describe('webhook and Stripe configuration', () => {
  const base = { ATTESTLY_MASTER_KEY: 'a'.repeat(64), ATTESTLY_DATA_DIR: '/tmp/attestly-config-test' };

  it('parses the allowlist and refuses entries that are not hosts, IPs or CIDRs', () => {
    const config = loadConfig({ ...base, ATTESTLY_WEBHOOK_ALLOWLIST: 'hooks.internal, 10.0.0.0/8 ,::1' });
    expect(config.webhooks.allowlist).toEqual(['hooks.internal', '10.0.0.0/8', '::1']);
    expect(() => loadConfig({ ...base, ATTESTLY_WEBHOOK_ALLOWLIST: 'http://x/y' })).toThrow(
      /ATTESTLY_WEBHOOK_ALLOWLIST must be a comma-separated list/,
    );
    expect(() => loadConfig({ ...base, ATTESTLY_WEBHOOK_ALLOWLIST: '10.0.0.0/33' })).toThrow(
      /ATTESTLY_WEBHOOK_ALLOWLIST/,
    );
  });

  it('turns billing on only with both Stripe secrets, and maps prices to plans', () => {
    expect(loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_test_1' }).stripe).toBeNull();
    const config = loadConfig({
      ...base,
      STRIPE_SECRET_KEY: 'sk_test_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
      ATTESTLY_STRIPE_PRICES: 'starter=price_a, growth=price_b',
    });
    expect(config.stripe).toMatchObject({ prices: { starter: 'price_a', growth: 'price_b' }, apiUrl: null });
    expect(() => loadConfig({ ...base, STRIPE_SECRET_KEY: 'pk_live_1' })).toThrow(
      /STRIPE_SECRET_KEY must start/,
    );
    expect(() => loadConfig({ ...base, ATTESTLY_STRIPE_PRICES: 'starter' })).toThrow(
      /ATTESTLY_STRIPE_PRICES/,
    );
  });
});

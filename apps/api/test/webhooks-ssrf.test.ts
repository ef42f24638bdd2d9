import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  embeddedIpv4,
  guardedLookup,
  isPublicAddress,
  parseAllowlist,
  urlProblem,
} from '../src/modules/partners/webhooks/outbound-guard';
import { createWebhookSender, failureCategory } from '../src/modules/partners/webhooks/sender';
import { loadConfig, type ConfigError } from '../src/config';
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
      'fe80::1%eth0',
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

  it('refuses IPv6 forms that carry a loopback or private IPv4 address', () => {
    for (const address of [
      // IPv4-compatible (::a.b.c.d), as written and as the URL parser normalises it.
      '::127.0.0.1',
      '::7f00:1',
      '::a00:1',
      '::a9fe:a9fe',
      // IPv4-mapped.
      '::ffff:10.0.0.1',
      '::ffff:c0a8:101',
      // SIIT IPv4-translated (::ffff:0:a.b.c.d).
      '::ffff:0:127.0.0.1',
      '::ffff:0:7f00:1',
      '::ffff:0:a00:1',
      // NAT64 well-known prefix (64:ff9b::/96).
      '64:ff9b::127.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b::c0a8:1',
      // 6to4 (2002::/16).
      '2002:7f00:1::',
      '2002:a00:1::1',
      '2002:c0a8:101:1::5',
      '2002:a9fe:a9fe::',
      // Teredo (2001:0::/32): server 65.54.227.120, client 127.0.0.1 (stored inverted).
      '2001:0:4136:e378:8000:63bf:80ff:fffe',
      '2001:0:4136:e378:8000:63bf:f5ff:fffe',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    // The same forms carrying public addresses are public (NAT64 deployments reach IPv4 receivers this way).
    for (const address of ['64:ff9b::808:808', '::ffff:8.8.8.8', '2002:808:808::1']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
    expect(embeddedIpv4('2001:0:4136:e378:8000:63bf:80ff:fffe')).toEqual(['65.54.227.120', '127.0.0.1']);
    expect(embeddedIpv4('2002:c0a8:101:1::5')).toEqual(['192.168.1.1']);
    expect(embeddedIpv4('::ffff:0:a00:1')).toEqual(['10.0.0.1']);
    expect(embeddedIpv4('2606:4700:4700::1111')).toEqual([]);
  });

  it('checks URLs: https only, no private IP literals or local names unless the host and port are listed', () => {
    const none = parseAllowlist([]);
    expect(urlProblem('https://hooks.example.com/x', none)).toBeNull();
    expect(urlProblem('http://hooks.example.com/x', none)).toBe('Webhook URL must use https');
    expect(urlProblem('https://127.0.0.1/x', none)).toBe(PRIVATE);
    // The WHATWG parser normalises other spellings of 127.0.0.1 before the check.
    expect(urlProblem('https://2130706433/x', none)).toBe(PRIVATE);
    expect(urlProblem('https://0x7f.1/x', none)).toBe(PRIVATE);
    expect(urlProblem('https://[::ffff:169.254.169.254]/x', none)).toBe(PRIVATE);
    expect(urlProblem('https://[::127.0.0.1]/x', none)).toBe(PRIVATE);
    expect(urlProblem('https://[64:ff9b::10.0.0.1]/x', none)).toBe(PRIVATE);
    expect(urlProblem('https://[2002:7f00:1::]/x', none)).toBe(PRIVATE);
    expect(urlProblem('https://localhost/x', none)).toBe(PRIVATE);
    expect(urlProblem('https://metadata.google.internal/x', none)).toBe(PRIVATE);

    const listed = parseAllowlist(['hooks.internal:8443', '10.0.0.0/8:443', '127.0.0.1:8080', '[::1]:9000']);
    expect(urlProblem('http://hooks.internal:8443/x', listed)).toBeNull();
    expect(urlProblem('https://hooks.internal:8443/x', listed)).toBeNull();
    // Another port of a listed host is not listed.
    expect(urlProblem('https://hooks.internal/x', listed)).toBe(PRIVATE);
    expect(urlProblem('http://hooks.internal:8080/x', listed)).toBe('Webhook URL must use https');
    expect(urlProblem('https://10.20.30.40/x', listed)).toBeNull();
    expect(urlProblem('https://10.20.30.40:443/x', listed)).toBeNull();
    expect(urlProblem('https://10.20.30.40:22/x', listed)).toBe(PRIVATE);
    expect(urlProblem('http://10.20.30.40/x', listed)).toBe('Webhook URL must use https');
    expect(urlProblem('http://127.0.0.1:8080/x', listed)).toBeNull();
    expect(urlProblem('http://127.0.0.1:8081/x', listed)).toBe('Webhook URL must use https');
    expect(urlProblem('https://127.0.0.1:8081/x', listed)).toBe(PRIVATE);
    expect(urlProblem('http://[::1]:9000/x', listed)).toBeNull();
    expect(urlProblem('https://[::1]:9001/x', listed)).toBe(PRIVATE);
    expect(urlProblem('https://192.168.1.1/x', listed)).toBe(PRIVATE);
    expect(urlProblem('http://hooks.example.com/x', listed)).toBe('Webhook URL must use https');
  });

  it('refuses at connect time a host name that resolves to a private address, and says nothing of it', async () => {
    const port = Number(new URL(receiver.url).port);
    const connect = (lookup: ReturnType<typeof guardedLookup>) =>
      new Promise<(Error & { code?: string }) | number>((resolve) => {
        const request = http.request(
          `http://localhost:${port}/hooks`,
          { method: 'POST', lookup, family: 4 },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        );
        request.on('error', resolve);
        request.end('{}');
      });
    const error = await connect(guardedLookup(parseAllowlist([]), port));
    expect(error).toMatchObject({ code: 'EOUTBOUNDREFUSED', message: 'no public address' });
    expect(receiver.received).toHaveLength(0);
    // Listed with another port, the host is refused on this one.
    expect(await connect(guardedLookup(parseAllowlist([`localhost:${port + 1}`]), port))).toMatchObject({
      code: 'EOUTBOUNDREFUSED',
    });
    expect(receiver.received).toHaveLength(0);
    // Listed by name with this port, the same host is reachable.
    expect(await connect(guardedLookup(parseAllowlist([`localhost:${port}`]), port))).toBe(200);
    // Listed by address with this port, too.
    expect(await connect(guardedLookup(parseAllowlist([`127.0.0.0/8:${port}`]), port))).toBe(200);
    receiver.received.length = 0;
  });

  it('sends nothing to a private target and tells only "refused" with a category', async () => {
    const sender = createWebhookSender(parseAllowlist([]));
    try {
      const port = new URL(receiver.url).port;
      const before = receiver.received.length;
      for (const url of [
        `http://127.0.0.1:${port}/hooks`,
        `https://127.0.0.1:${port}/hooks`,
        `https://localhost:${port}/hooks`,
        `https://[::ffff:7f00:1]:${port}/hooks`,
        `https://[::7f00:1]:${port}/hooks`,
        // A name that does not resolve gets the same answer as one that resolves to a private address.
        'https://no-such-receiver.invalid/hooks',
      ]) {
        const result = await sender.send({ url, body: '{}', headers: {} });
        expect(result, url).toMatchObject({ ok: false, statusCode: null, responseExcerpt: null });
        expect(['refused: no public address', 'refused: URL not allowed']).toContain(result.error);
      }
      const named = await sender.send({ url: `https://localhost:${port}/hooks`, body: '{}', headers: {} });
      expect(named.error).toBe('refused: no public address');
      const unknown = await sender.send({
        url: 'https://no-such-receiver.invalid/h',
        body: '{}',
        headers: {},
      });
      expect(unknown.error).toBe('refused: no public address');
      expect(receiver.received.length).toBe(before);
    } finally {
      sender.close();
    }
  });

  it("keeps an allowlisted internal receiver's answer out of the result, and names failures by category", async () => {
    const port = Number(new URL(receiver.url).port);
    const closed = await new Promise<number>((resolve) => {
      const probe = http.createServer().listen(0, '127.0.0.1', () => {
        const free = (probe.address() as { port: number }).port;
        probe.close(() => resolve(free));
      });
    });
    const sender = createWebhookSender(parseAllowlist([`127.0.0.1:${port}`, `127.0.0.1:${closed}`]), 2000);
    try {
      receiver.state.respond = () => 500;
      const answered = await sender.send({ url: receiver.url, body: '{}', headers: {} });
      expect(answered).toMatchObject({
        ok: false,
        statusCode: 500,
        error: 'failed: HTTP 500',
        responseExcerpt: null,
      });
      receiver.state.respond = () => 200;
      const delivered = await sender.send({ url: receiver.url, body: '{}', headers: {} });
      expect(delivered).toMatchObject({ ok: true, statusCode: 200, error: null, responseExcerpt: null });
      const refused = await sender.send({ url: `http://127.0.0.1:${closed}/hooks`, body: '{}', headers: {} });
      expect(refused).toMatchObject({ ok: false, statusCode: null, error: 'failed: connection refused' });
    } finally {
      sender.close();
      receiver.received.length = 0;
    }
  });

  it('reports socket and TLS errors by category, never by their message', () => {
    const error = (code: string) =>
      Object.assign(new Error(`connect ${code} 10.1.2.3:443 (db.corp.internal)`), { code });
    expect(failureCategory(error('EOUTBOUNDREFUSED'))).toBe('refused: no public address');
    expect(failureCategory(error('ECONNREFUSED'))).toBe('failed: connection refused');
    expect(failureCategory(error('ETIMEDOUT'))).toBe('failed: timeout');
    expect(failureCategory(error('ECONNRESET'))).toBe('failed: connection reset');
    expect(failureCategory(error('EHOSTUNREACH'))).toBe('failed: unreachable');
    expect(failureCategory(error('DEPTH_ZERO_SELF_SIGNED_CERT'))).toBe('failed: TLS');
    expect(failureCategory(error('ERR_TLS_CERT_ALTNAME_INVALID'))).toBe('failed: TLS');
    expect(failureCategory(error('ENOTFOUND'))).toBe('failed: connection error');
    expect(failureCategory(new Error('getaddrinfo ENOTFOUND db.corp.internal'))).toBe(
      'failed: connection error',
    );
  });
});

describe('webhook and Stripe configuration', () => {
  const base = { ATTESTLY_MASTER_KEY: 'a'.repeat(64), ATTESTLY_DATA_DIR: '/tmp/attestly-config-test' };

  it('parses host:port allowlist entries and stops start-up naming each bad entry and why', () => {
    const config = loadConfig({
      ...base,
      ATTESTLY_WEBHOOK_ALLOWLIST: 'hooks.internal:8443, 10.0.0.0/8:443 ,[::1]:8080,[fd00::/8]:9000',
    });
    expect(config.webhooks.allowlist).toEqual([
      'hooks.internal:8443',
      '10.0.0.0/8:443',
      '[::1]:8080',
      '[fd00::/8]:9000',
    ]);
    const problems = (value: string) => {
      try {
        loadConfig({ ...base, ATTESTLY_WEBHOOK_ALLOWLIST: value });
        return null;
      } catch (error) {
        return (error as ConfigError).problems.join('\n');
      }
    };
    expect(problems('hooks.internal')).toBe(
      'ATTESTLY_WEBHOOK_ALLOWLIST must be a comma-separated list of host:port entries: "hooks.internal" names no port: write host:port (e.g. hooks.internal:8443, 10.0.0.0/8:443 or [fd00::1]:8443); one entry opens one port',
    );
    expect(problems('10.0.0.0/8')).toMatch(/"10\.0\.0\.0\/8" names no port/);
    expect(problems('127.0.0.1')).toMatch(/"127\.0\.0\.1" names no port/);
    expect(problems('http://x/y')).toMatch(/"http:\/\/x\/y" is a URL: write host:port/);
    expect(problems('10.0.0.0/33:443')).toMatch(/10\.0\.0\.0\/33 is not a valid IP address or CIDR/);
    expect(problems('::1:8080')).toMatch(/write IPv6 addresses in brackets/);
    expect(problems('[hooks.internal]:80')).toMatch(/only IPv6 addresses go in brackets/);
    expect(problems('hooks.internal:0')).toMatch(/port must be a number from 1 to 65535/);
    expect(problems('hooks.internal:70000')).toMatch(/port must be a number from 1 to 65535/);
    expect(problems('bad_host!:80')).toMatch(/bad_host! is not a host name, IP address or CIDR/);
    // Every bad entry is named, not only the first.
    expect(problems('a.internal, good.internal:443, 10.0.0.1')).toMatch(
      /"a\.internal" names no port.*; "10\.0\.0\.1" names no port/,
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

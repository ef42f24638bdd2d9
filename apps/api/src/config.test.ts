import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'attestly-config-'));
  dirs.push(dir);
  return path.join(dir, 'data');
}

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig({ ATTESTLY_DATA_DIR: dataDir(), ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({ ATTESTLY_DATA_DIR: dataDir() });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: null,
      publicUrl: 'http://localhost:8080',
      logLevel: 'info',
      smtpUrl: null,
      corsOrigins: [],
      trustProxy: false,
      sessionTtlMs: 12 * 3600_000,
      rememberTtlMs: 30 * 86400_000,
      passwordCost: 15,
    });
    expect(config.masterKey).toHaveLength(32);
  });

  it('configures phone codes: none (log), an SMS webhook, or an e-mail-to-SMS domain', () => {
    expect(loadConfig({ ATTESTLY_DATA_DIR: dataDir() }).sms).toBeNull();
    expect(
      loadConfig({
        ATTESTLY_DATA_DIR: dataDir(),
        ATTESTLY_SMS_WEBHOOK_URL: 'https://sms.example.com/send',
        ATTESTLY_SMS_WEBHOOK_CONTENT_TYPE: 'application/x-www-form-urlencoded',
        ATTESTLY_SMS_WEBHOOK_BODY: 'To={{phone}}&Body={{message}}',
      }).sms,
    ).toEqual({
      kind: 'webhook',
      url: 'https://sms.example.com/send',
      bodyTemplate: 'To={{phone}}&Body={{message}}',
      contentType: 'application/x-www-form-urlencoded',
      authorization: null,
    });
    expect(
      loadConfig({ ATTESTLY_DATA_DIR: dataDir(), ATTESTLY_SMS_EMAIL_DOMAIN: 'SMS.Example.NET' }).sms,
    ).toEqual({
      kind: 'email',
      domain: 'sms.example.net',
    });
  });

  it('refuses an SMS webhook over plain http to another machine, and malformed gateway settings', () => {
    expect(
      problems({
        ATTESTLY_SMS_WEBHOOK_URL: 'http://sms.example.com/send',
        ATTESTLY_SMS_WEBHOOK_CONTENT_TYPE: 'text/plain',
        ATTESTLY_SMS_EMAIL_DOMAIN: 'not a domain',
      }),
    ).toEqual([
      'ATTESTLY_SMS_WEBHOOK_URL must use https: (plain http only to localhost)',
      'ATTESTLY_SMS_WEBHOOK_CONTENT_TYPE must be application/json or application/x-www-form-urlencoded',
      'ATTESTLY_SMS_EMAIL_DOMAIN must be a domain such as sms.example.com',
    ]);
    expect(
      loadConfig({ ATTESTLY_DATA_DIR: dataDir(), ATTESTLY_SMS_WEBHOOK_URL: 'http://127.0.0.1:9000/relay' })
        .sms,
    ).toMatchObject({ kind: 'webhook', url: 'http://127.0.0.1:9000/relay' });
  });

  it('lists every problem at once', () => {
    const listed = problems({
      PORT: 'abc',
      LOG_LEVEL: 'loud',
      ATTESTLY_PUBLIC_URL: 'ftp://x',
      ATTESTLY_SESSION_HOURS: '0',
    });
    expect(listed).toEqual(
      expect.arrayContaining([
        'PORT must be a port number',
        expect.stringMatching(/^LOG_LEVEL must be one of fatal, error, warn, info/),
        'ATTESTLY_PUBLIC_URL must use http: or https:',
        'ATTESTLY_SESSION_HOURS must be at least 1',
      ]),
    );
    expect(listed).toHaveLength(4);
  });

  it('says so in the error message, one problem per line', () => {
    expect(() => loadConfig({ ATTESTLY_DATA_DIR: dataDir(), PORT: '70000', LOG_LEVEL: 'loud' })).toThrow(
      /Invalid configuration:\n {2}- PORT must be between 0 and 65535\n {2}- LOG_LEVEL must be one of/,
    );
  });

  it.each([
    [{ DATABASE_URL: 'mysql://db/attestly' }, 'DATABASE_URL must use postgres: or postgresql: or sqlite:'],
    [
      { ATTESTLY_MASTER_KEY: 'too-short' },
      'ATTESTLY_MASTER_KEY must be 32 bytes, as 64 hex characters or base64',
    ],
    [{ ATTESTLY_TRUST_PROXY: 'yes' }, 'ATTESTLY_TRUST_PROXY must be true or false'],
    [{ ATTESTLY_PASSWORD_COST: '9' }, 'ATTESTLY_PASSWORD_COST must be between 10 and 20'],
    [
      { ATTESTLY_CORS_ORIGINS: 'https://shop.example.com/app' },
      expect.stringMatching(/^ATTESTLY_CORS_ORIGINS must be a comma-separated list/),
    ],
    [{ ATTESTLY_CORS_ORIGINS: '*' }, expect.stringMatching(/^ATTESTLY_CORS_ORIGINS/)],
  ])('refuses %j', (env, message) => {
    expect(problems(env as Record<string, string>)).toEqual([message]);
  });

  it('does not create a master key when the configuration is invalid', () => {
    const dir = dataDir();
    expect(() => loadConfig({ ATTESTLY_DATA_DIR: dir, PORT: 'abc' })).toThrow(ConfigError);
    expect(() => statSync(path.join(dir, 'master.key'))).toThrow();
  });

  it('treats empty variables as unset and normalises URLs and origins', () => {
    const config = loadConfig({
      ATTESTLY_DATA_DIR: dataDir(),
      PORT: '',
      ATTESTLY_PUBLIC_URL: 'https://verify.example.com/',
      ATTESTLY_CORS_ORIGINS: ' https://shop.example.com/ , http://localhost:5173',
    });
    expect(config.port).toBe(8080);
    expect(config.publicUrl).toBe('https://verify.example.com');
    expect(config.corsOrigins).toEqual(['https://shop.example.com', 'http://localhost:5173']);
  });

  it('generates the master key once, readable by the owner only, and reuses it', () => {
    const dir = dataDir();
    const first = loadConfig({ ATTESTLY_DATA_DIR: dir });
    const file = path.join(dir, 'master.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o077).toBe(0);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.masterKey.toString('hex'));
    const second = loadConfig({ ATTESTLY_DATA_DIR: dir });
    expect(second.masterKey.equals(first.masterKey)).toBe(true);
  });

  it('prefers ATTESTLY_MASTER_KEY, in hex or base64, and then writes no key file', () => {
    const key = randomBytes(32);
    const dir = dataDir();
    expect(
      loadConfig({ ATTESTLY_DATA_DIR: dir, ATTESTLY_MASTER_KEY: key.toString('hex') }).masterKey.equals(key),
    ).toBe(true);
    expect(
      loadConfig({ ATTESTLY_DATA_DIR: dir, ATTESTLY_MASTER_KEY: key.toString('base64') }).masterKey.equals(
        key,
      ),
    ).toBe(true);
    expect(() => statSync(path.join(dir, 'master.key'))).toThrow();
  });

  it('refuses a damaged key file instead of replacing it', () => {
    const dir = dataDir();
    loadConfig({ ATTESTLY_DATA_DIR: dir });
    writeFileSync(path.join(dir, 'master.key'), 'not a key\n');
    expect(() => loadConfig({ ATTESTLY_DATA_DIR: dir })).toThrow(/does not hold a 32-byte key/);
    expect(readFileSync(path.join(dir, 'master.key'), 'utf8')).toBe('not a key\n');
  });
});

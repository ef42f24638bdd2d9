import { describe, expect, it } from 'vitest';
import { decoyHash, hashPassword, verifyPassword } from './passwords';

describe('password hashing (scrypt)', () => {
  it('verifies the password it hashed and refuses any other', async () => {
    const hash = await hashPassword('correct horse battery staple', 10);
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', hash)).toBe(false);
    expect(await verifyPassword('Correct horse battery staple', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
  });

  it('stores the scheme, cost, block size, parallelism, salt and key in the hash', async () => {
    const hash = await hashPassword('secret password', 11);
    const [scheme, cost, r, p, salt, key] = hash.split('$');
    expect({ scheme, cost, r, p }).toEqual({ scheme: 'scrypt', cost: '11', r: '8', p: '1' });
    expect(Buffer.from(salt as string, 'base64url')).toHaveLength(16);
    expect(Buffer.from(key as string, 'base64url')).toHaveLength(32);
    expect(hash).not.toContain('secret');
  });

  it('salts every hash, so equal passwords hash differently', async () => {
    const [a, b] = await Promise.all([hashPassword('same password', 10), hashPassword('same password', 10)]);
    expect(a).not.toBe(b);
  });

  it('verifies hashes made at another cost, so the cost can be raised later', async () => {
    const old = await hashPassword('kept password', 10);
    const current = await hashPassword('kept password', 12);
    expect(await verifyPassword('kept password', old)).toBe(true);
    expect(await verifyPassword('kept password', current)).toBe(true);
  });

  it('treats canonically equivalent Unicode spellings as the same password (NFKC)', async () => {
    const hash = await hashPassword('caf\u00e9 au lait', 10);
    expect(await verifyPassword('cafe\u0301 au lait', hash)).toBe(true);
  });

  it('refuses malformed or foreign hashes without throwing', async () => {
    const salt = Buffer.alloc(16).toString('base64url');
    const key = Buffer.alloc(32).toString('base64url');
    for (const stored of [
      '',
      'plain',
      'bcrypt$10$abc',
      'scrypt$10$8$1$salt',
      'deleted$0123456789abcdef',
      `scrypt$40$8$1$${salt}$${key}`,
      `scrypt$abc$8$1$${salt}$${key}`,
      `scrypt$10$0$1$${salt}$${key}`,
    ]) {
      expect(await verifyPassword('anything', stored)).toBe(false);
    }
  });

  it('takes at least 50 ms per hash at the production cost of 15', async () => {
    const started = process.hrtime.bigint();
    await hashPassword('timing check', 15);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeGreaterThanOrEqual(50);
  });

  it('keeps one decoy hash per cost that no password matches', async () => {
    const decoy = await decoyHash(10);
    expect(await decoyHash(10)).toBe(decoy);
    expect(decoy).toMatch(/^scrypt\$10\$/);
    expect(await verifyPassword('password', decoy)).toBe(false);
  });
});

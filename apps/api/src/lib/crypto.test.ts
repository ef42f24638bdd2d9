import { describe, expect, it } from 'vitest';
import { constantTimeEqual, deriveKey, hmacSha256, randomDigits, randomToken, sha256 } from './crypto';

describe('crypto helpers', () => {
  const master = Buffer.alloc(32, 7);

  it('derives a stable 32-byte key per purpose, different for each purpose', () => {
    const a = deriveKey(master, 'one-time-tokens');
    expect(a).toHaveLength(32);
    expect(deriveKey(master, 'one-time-tokens').equals(a)).toBe(true);
    expect(deriveKey(master, 'newsletter').equals(a)).toBe(false);
    expect(deriveKey(Buffer.alloc(32, 8), 'one-time-tokens').equals(a)).toBe(false);
  });

  it('hashes with SHA-256 and HMAC-SHA256 as hex', () => {
    expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    // RFC 4231 test case 2.
    expect(hmacSha256(Buffer.from('Jefe'), 'what do ya want for nothing?')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('makes url-safe random tokens of the asked strength', () => {
    const token = randomToken(32);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken(32)).not.toBe(token);
  });

  it('makes numeric codes of the asked length with every digit in use', () => {
    const seen = new Set<string>();
    for (let index = 0; index < 200; index += 1) {
      const code = randomDigits(6);
      expect(code).toMatch(/^\d{6}$/);
      for (const digit of code) seen.add(digit);
    }
    expect(seen.size).toBe(10);
  });

  it('compares strings in constant time, including different lengths', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });
});

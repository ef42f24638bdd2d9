import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { partnerProfileBody, withWebScheme } from './partners';

describe('partner website (issue 25 item 13)', () => {
  it('adds https:// to an address typed without a scheme, host:port included', () => {
    expect(withWebScheme('shop.example.com')).toBe('https://shop.example.com');
    expect(withWebScheme('localhost:3000/app')).toBe('https://localhost:3000/app');
    expect(withWebScheme('http://shop.example.com')).toBe('http://shop.example.com');
    expect(withWebScheme('HTTPS://Shop.example.com')).toBe('HTTPS://Shop.example.com');
  });

  it('keeps refusing what is not a web address', () => {
    const parse = (website: string) => v.safeParse(partnerProfileBody, { company_name: 'Acme', website });
    expect(parse('shop.example.com').output).toMatchObject({ website: 'https://shop.example.com' });
    for (const bad of [
      'javascript:alert(1)',
      'ftp://files.example.com',
      'mailto:a@example.com',
      'not a site',
    ]) {
      expect(parse(bad).success, bad).toBe(false);
    }
  });
});

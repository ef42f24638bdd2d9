import { describe, expect, it } from 'vitest';
import {
  dayToIso,
  formatConfidence,
  grantStatus,
  remainingTime,
  shortId,
  shortTokenId,
  userAgentHead,
  userVerificationLabel,
} from './format';

const ID = '7b0c2a36-64c5-4e7f-9d8e-3c8a4f6f1d10';
const NOW = Date.parse('2030-01-01T00:00:00.000Z');

describe('back-office display rules (spec 02 §4, §9)', () => {
  // Verification and user ids are shown whole with a Copy button (issue 25 item 11), not as spec 02 §9 sliced them.
  it('shortens token and other ids the ways the spec names', () => {
    expect(shortTokenId('abcdefgh12345678ijklmnop')).toBe('abcdefgh...ijklmnop');
    expect(shortTokenId('short')).toBe('short');
    expect(shortId(ID)).toBe('7b0c2a36');
  });

  it('shows confidence with one decimal and a percent sign, else N/A', () => {
    expect(formatConfidence(0.8766)).toBe('87.7%');
    expect(formatConfidence(1)).toBe('100.0%');
    expect(formatConfidence(null)).toBe('N/A');
    expect(formatConfidence(undefined)).toBe('N/A');
  });

  it('derives Revoked, Expired and Active in that order', () => {
    expect(grantStatus({ is_active: false, expires_at: '2031-01-01T00:00:00Z' }, NOW)).toBe('Revoked');
    expect(grantStatus({ is_active: true, expires_at: '2029-12-31T23:59:59Z' }, NOW)).toBe('Expired');
    expect(grantStatus({ is_active: true, expires_at: '2030-01-02T00:00:00Z' }, NOW)).toBe('Active');
    expect(grantStatus({ is_active: true, expires_at: null }, NOW)).toBe('Active');
  });

  it('shows days and hours beyond 24 hours, hours and minutes below, or Expired', () => {
    expect(remainingTime(new Date(NOW + (3 * 24 + 5) * 3600_000 + 59_000).toISOString(), NOW)).toBe('3d 5h');
    expect(remainingTime(new Date(NOW + 24 * 3600_000).toISOString(), NOW)).toBe('1d 0h');
    expect(remainingTime(new Date(NOW + (23 * 60 + 59) * 60_000).toISOString(), NOW)).toBe('23h 59m');
    expect(remainingTime(new Date(NOW + 5 * 60_000).toISOString(), NOW)).toBe('0h 5m');
    expect(remainingTime(new Date(NOW).toISOString(), NOW)).toBe('Expired');
    expect(remainingTime(new Date(NOW - 1).toISOString(), NOW)).toBe('Expired');
  });

  it('labels a user by the facts verified', () => {
    const none = { age_verified: false, location_verified: false, identity_verified: false };
    expect(userVerificationLabel(none)).toBe('Unverified');
    expect(userVerificationLabel({ ...none, age_verified: true })).toBe('Partially Verified');
    expect(
      userVerificationLabel({ age_verified: true, location_verified: true, identity_verified: true }),
    ).toBe('Fully Verified');
  });

  it('keeps the first token of a user agent and turns local days into instants', () => {
    expect(userAgentHead('Mozilla/5.0 (X11; Linux x86_64)')).toBe('Mozilla/5.0');
    expect(userAgentHead(null)).toBe('');
    const start = dayToIso('2030-03-04') as string;
    const end = dayToIso('2030-03-04', true) as string;
    expect(Date.parse(end) - Date.parse(start)).toBe(24 * 3600_000 - 1);
    expect(new Date(start).getDate()).toBe(4);
    expect(dayToIso('not a day')).toBeUndefined();
  });
});

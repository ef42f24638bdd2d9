import { describe, expect, it } from 'vitest';
import { overallVerification } from './verification-status';

describe('overall verification (spec 01 §4)', () => {
  it('is full with all three facts, partial with one or two, none otherwise', () => {
    const flags = (age: boolean, location: boolean, identity: boolean) => ({
      age_verified: age,
      location_verified: location,
      identity_verified: identity,
    });
    expect(overallVerification(flags(true, true, true))).toBe('fully_verified');
    expect(overallVerification(flags(true, false, false))).toBe('partially_verified');
    expect(overallVerification(flags(false, true, true))).toBe('partially_verified');
    expect(overallVerification(flags(false, false, false))).toBe('not_verified');
  });
});

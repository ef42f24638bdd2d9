import type { UserProfile } from '@attestly/contracts';

export type OverallVerification = 'fully_verified' | 'partially_verified' | 'not_verified';

/** spec 01 §4 "Overall verification": all three facts, one or two, or none. */
export function overallVerification(
  profile: Pick<UserProfile, 'age_verified' | 'location_verified' | 'identity_verified'>,
): OverallVerification {
  const count = [profile.age_verified, profile.location_verified, profile.identity_verified].filter(
    Boolean,
  ).length;
  if (count === 3) return 'fully_verified';
  return count > 0 ? 'partially_verified' : 'not_verified';
}

export const OVERALL_LABELS: Record<OverallVerification, string> = {
  fully_verified: 'Fully verified',
  partially_verified: 'Partially verified',
  not_verified: 'Not verified',
};

export const VERIFICATION_FACTS = [
  { key: 'age', label: 'Age', flag: 'age_verified', at: 'age_verified_at' },
  { key: 'location', label: 'Location', flag: 'location_verified', at: 'location_verified_at' },
  { key: 'identity', label: 'Identity', flag: 'identity_verified', at: 'identity_verified_at' },
] as const;

export function formatDate(iso: string | null): string {
  return iso
    ? new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' })
    : '';
}

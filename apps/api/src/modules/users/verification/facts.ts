import type { Transaction } from 'sequelize';
import type { Config } from '../../../config';
import type { User } from '../../../db/models/index';

/** What a verification proves once approved; stored in `result_details.proves` so a later review can apply it. */
export interface ProvenFacts {
  minAge?: number;
  location?: { country: string; state: string | null };
  identity?: boolean;
}

/** Whether a proof is still valid at `now`. */
export const live = (until: Date | null, now: Date) => until !== null && until > now;

/** Applies approved facts to the user. A stronger unexpired age proof is never replaced by a weaker one. */
export async function applyFacts(
  config: Pick<Config, 'verificationValidityMs'>,
  user: User,
  facts: ProvenFacts,
  now: Date,
  transaction: Transaction,
): Promise<Date> {
  const until = new Date(now.getTime() + config.verificationValidityMs);
  if (facts.minAge !== undefined) {
    const stronger =
      user.proven_min_age !== null &&
      live(user.age_verified_until, now) &&
      user.proven_min_age > facts.minAge;
    if (!stronger) {
      user.proven_min_age = facts.minAge;
      user.age_verified_at = now;
      user.age_verified_until = until;
    }
  }
  if (facts.location) {
    user.location_country = facts.location.country;
    user.location_state = facts.location.state;
    user.location_verified_at = now;
    user.location_verified_until = until;
  }
  if (facts.identity) {
    user.identity_verified_at = now;
    user.identity_verified_until = until;
  }
  await user.save({ transaction });
  return until;
}

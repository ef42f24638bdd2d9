import * as v from 'valibot';
import { AGE_THRESHOLDS, type AgeThreshold, type VerificationMethod } from './verification';

/**
 * The partner's server-side age question (spec 01 §1 "Quick Start Example": a client with an API key and an
 * environment calls verify-age with a user id and a method, and reads a boolean). The user id is the pairwise
 * subject (`sub`) the partner's sites received; the answer is a yes/no about what the user proved on this
 * appliance and agreed to share with those sites. No card data travels here: a card check is the user's own,
 * in the browser, straight to the card processor.
 */
export const AGE_CHECK_METHODS = ['credit_card', 'facial_recognition', 'document'] as const;
export type AgeCheckMethod = (typeof AGE_CHECK_METHODS)[number] & VerificationMethod;

export const partnerVerifyAgeBody = v.object({
  user_id: v.pipe(
    v.string('user_id is required'),
    v.trim(),
    v.nonEmpty('user_id is required'),
    v.maxLength(128, 'user_id is not an Attestly user id'),
  ),
  age_threshold: v.optional(
    v.pipe(
      v.number('age_threshold must be one of 12, 16, 18, 21'),
      v.check(
        (value) => (AGE_THRESHOLDS as readonly number[]).includes(value),
        'age_threshold must be one of 12, 16, 18, 21',
      ),
      v.transform((value) => value as AgeThreshold),
    ),
    18,
  ),
  method: v.optional(v.picklist(AGE_CHECK_METHODS, `method must be one of ${AGE_CHECK_METHODS.join(', ')}`)),
});
export type PartnerVerifyAgeBody = v.InferInput<typeof partnerVerifyAgeBody>;

/** POST /partners/verify-age. */
export interface PartnerAgeAnswer {
  verified: boolean;
  user_id: string;
  age_threshold: AgeThreshold;
  /** The method asked about, or null for any method. */
  method: AgeCheckMethod | null;
  /** The day the age was proven (midnight UTC, as in the ID token), when verified. */
  verification_timestamp: string | null;
  /** Where to send the user to prove it, when not verified. */
  verify_url: string | null;
}

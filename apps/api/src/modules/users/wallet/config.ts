import * as v from 'valibot';
import { commaList } from '../../../lib/comma-list';

/**
 * Wallet credential settings (issue 24), parsed with the rest of the configuration (config.ts spreads these
 * entries into its schema, so a bad value is reported with every other problem at start-up).
 */

/** What may back a wallet credential: how the age behind it was proven. */
export const ISSUING_METHODS = ['document', 'manual_review', 'facial_estimation'] as const;
export type IssuingMethod = (typeof ISSUING_METHODS)[number];

/** EU AV profile §3.4.3: an age attestation is valid for at most three months. */
export const MAX_CREDENTIAL_DAYS = 90;

export const walletEnvEntries = {
  // The EU age-verification profile does not accept age estimation behind an attestation (research §2), so faces
  // are left out unless the operator opts in.
  ATTESTLY_WALLET_ISSUING_METHODS: v.pipe(
    commaList('document,manual_review'),
    v.check(
      (entries) =>
        entries.length > 0 &&
        entries.every((entry) => (ISSUING_METHODS as readonly string[]).includes(entry)),
      `ATTESTLY_WALLET_ISSUING_METHODS must be a comma-separated list of ${ISSUING_METHODS.join(', ')}`,
    ),
  ),
  ATTESTLY_WALLET_CREDENTIAL_DAYS: v.pipe(
    v.optional(v.string(), String(MAX_CREDENTIAL_DAYS)),
    v.regex(/^\d+$/, 'ATTESTLY_WALLET_CREDENTIAL_DAYS must be a whole number'),
    v.transform(Number),
    v.minValue(1, `ATTESTLY_WALLET_CREDENTIAL_DAYS must be between 1 and ${MAX_CREDENTIAL_DAYS}`),
    v.maxValue(
      MAX_CREDENTIAL_DAYS,
      `ATTESTLY_WALLET_CREDENTIAL_DAYS must be between 1 and ${MAX_CREDENTIAL_DAYS}`,
    ),
  ),
  // ISO 18013-5 (Annex B) wants the issuing country in the document signer's and root's names.
  ATTESTLY_WALLET_COUNTRY: v.pipe(
    v.optional(v.string(), 'EU'),
    v.regex(/^[A-Z]{2}$/, 'ATTESTLY_WALLET_COUNTRY must be a two-letter country code such as DE'),
  ),
};

export interface WalletConfig {
  /** Proof methods that may back a credential. */
  issuingMethods: IssuingMethod[];
  /** Days a credential is valid for (never past the proof behind it). */
  credentialDays: number;
  /** ISO 3166 country code in the certificates' names. */
  country: string;
}

export function walletConfigFrom(parsed: {
  ATTESTLY_WALLET_ISSUING_METHODS: string[];
  ATTESTLY_WALLET_CREDENTIAL_DAYS: number;
  ATTESTLY_WALLET_COUNTRY: string;
}): WalletConfig {
  return {
    country: parsed.ATTESTLY_WALLET_COUNTRY,
    issuingMethods: parsed.ATTESTLY_WALLET_ISSUING_METHODS as IssuingMethod[],
    credentialDays: parsed.ATTESTLY_WALLET_CREDENTIAL_DAYS,
  };
}

export const DEFAULT_WALLET_CONFIG: WalletConfig = {
  issuingMethods: ['document', 'manual_review'],
  credentialDays: MAX_CREDENTIAL_DAYS,
  country: 'EU',
};

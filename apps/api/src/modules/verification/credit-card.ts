import {
  cardBrand,
  cardCvvProblem,
  cardExpiryProblem,
  type CardBrand,
  type VerificationSummary,
} from '@attestly/contracts';
import type * as v from 'valibot';
import type { cardBody } from '@attestly/contracts';
import { Op } from 'sequelize';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import { deriveKey, hmacSha256 } from '../../lib/crypto';
import type { RequestOrigin } from '../sessions/service';
import { presentVerification } from './presenters';
import type { VerificationService } from './service';

export type CardInput = v.InferOutput<typeof cardBody>;

/**
 * A keyed fingerprint of a card number: the same card always gives the same value on this installation (so reuse
 * across accounts is visible) but, unlike a plain hash, the 10^15-ish card space cannot be brute-forced without
 * the master key.
 */
export function cardFingerprint(masterKey: Buffer, digits: string): string {
  return hmacSha256(deriveKey(masterKey, 'card-fingerprint'), digits);
}

export const CARD_FORMAT_ONLY_MESSAGE =
  'A card cannot verify your age on this server: only the card format could be checked (number checksum, expiry ' +
  'date and security code), no card issuer has confirmed the card, and a card proves an age only where its issuer ' +
  'requires holders to be adults. Please verify your age with an identity document and a short video instead.';

/**
 * Credit-card check at format level (DESIGN.md §5): Luhn, brand, expiry and CVV format. The card number and CVV are
 * used in memory only — the row keeps brand, last four digits and a keyed fingerprint. No issuer check is built
 * (a Stripe SetupIntent needs Stripe.js in the browser, which the appliance does not load), so a card is not offered
 * as an age method in the app, and a check sent to the API is decided at once as 'rejected' with the reason (issue
 * 14: nothing may wait for a decision nobody can make): a number that passes Luhn is trivial to make up.
 */
export function createCardVerification(deps: Deps, verifications: VerificationService) {
  const { config, clock, db } = deps;

  async function verify(
    userId: string,
    card: CardInput,
    origin: RequestOrigin,
  ): Promise<{ verification: VerificationSummary; message: string }> {
    const now = clock.now();
    const brand: CardBrand = cardBrand(card.card_number);
    const expiry = cardExpiryProblem(card.expiry_month, card.expiry_year, now);
    if (expiry) {
      const path = expiry.startsWith('Expiry month') ? 'expiry_month' : 'expiry_year';
      throw new AppError(422, 'validation.failed', expiry, [{ path, message: expiry }]);
    }
    const cvv = cardCvvProblem(card.cvv, brand);
    if (cvv) throw new AppError(422, 'validation.failed', cvv, [{ path: 'cvv', message: cvv }]);
    const fingerprint = cardFingerprint(config.masterKey, card.card_number);
    const otherAccounts = await db.models.Verification.count({
      where: { subject_fingerprint: fingerprint, user_id: { [Op.ne]: userId } },
      distinct: true,
      col: 'user_id',
    });
    const row = await verifications.record(
      {
        userId,
        type: 'age',
        method: 'credit_card',
        status: 'rejected',
        // Nothing about the holder's age follows from a format check.
        confidence: 0,
        ageThreshold: 18,
        needsReview: false,
        message: CARD_FORMAT_ONLY_MESSAGE,
        details: {
          check: 'format_only',
          issuer_check: 'not_available',
          decision: 'a format-level card check cannot prove an age',
          brand,
          last4: card.card_number.slice(-4),
          expiry_month: String(card.expiry_month).padStart(2, '0'),
          expiry_year: card.expiry_year,
          luhn_valid: true,
          card_seen_on_other_accounts: otherAccounts,
        },
        fingerprint,
      },
      origin,
    );
    return { verification: presentVerification(row, now), message: CARD_FORMAT_ONLY_MESSAGE };
  }

  return { verify };
}

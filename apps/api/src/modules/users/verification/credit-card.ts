import type Stripe from 'stripe';
import { Op } from 'sequelize';
import type { VerificationSummary } from '@attestly/contracts';
import type { Config } from '../../../config';
import type { Database } from '../../../db/database';
import { AppError, notFound } from '../../../errors';
import type { Clock } from '../../../lib/clock';
import { deriveKey, hmacSha256 } from '../../../lib/crypto';
import { createStripeClient } from '../../partners/billing/stripe-client';
import { presentVerification } from './presenters';
import type { VerificationOrigin, VerificationService } from './service';

/** What the card check needs: the pieces of the shared deps it reads (types only from config/db). */
export interface CardCheckDeps {
  config: Pick<Config, 'masterKey' | 'cardCheck'>;
  db: Database;
  clock: Clock;
  logger: { warn(details: object, message: string): void };
}

/**
 * A keyed fingerprint of a card: Stripe's own card fingerprint (the same card number gives the same value across
 * Stripe) under a key derived from the master key, so reuse across accounts is visible here while the stored value
 * means nothing outside this installation.
 */
export function cardFingerprint(masterKey: Buffer, stripeFingerprint: string): string {
  return hmacSha256(deriveKey(masterKey, 'card-fingerprint'), `stripe:${stripeFingerprint}`);
}

export const CARD_CHECK_UNAVAILABLE = 'Card checks are not available on this server.';
const INITIATED = 'Credit card verification initiated!';
const NOT_CREDIT =
  'Only a credit card can prove your age: debit and prepaid cards are also issued to people under 18. Please use a credit card, or verify with an identity document or a short video.';
const NOT_CONFIRMED =
  'Your card issuer did not confirm the card, so it cannot prove your age. Please try again, or verify with an identity document or a short video.';
const wrongCountry = (country: string | null) =>
  `Cards issued ${country ? `in ${country}` : 'in an unknown country'} cannot prove an age on this service: only credit cards from countries whose issuers must check that holders are adults count. Please verify with an identity document or a short video instead.`;

/**
 * The credit-card age check (DESIGN.md §5, issue 25 item 1): a Stripe SetupIntent. The card goes from the browser
 * to Stripe (Stripe.js Elements) and is confirmed by its issuer, with 3-D Secure when the issuer asks; the
 * appliance never sees the number. An approved credit card — funding `credit`, not debit or prepaid — proves 18+,
 * as the UK regulator's guidance on highly effective age assurance treats credit card checks (credit issuers there
 * must verify that the holder is an adult); the operator can restrict it to such issuing countries
 * (ATTESTLY_CARD_COUNTRIES). Only brand, last four digits, funding type, issuing country and a keyed fingerprint are
 * kept. Each SetupIntent decides once: its card_checks row is claimed with a conditional update.
 */
export function createCardVerification(deps: CardCheckDeps, verifications: VerificationService) {
  const { config, clock, db, logger } = deps;
  const settings = config.cardCheck;
  const stripe = settings ? createStripeClient(settings) : null;

  function requireStripe(): Stripe {
    if (!stripe) throw new AppError(404, 'verification.card_check_unavailable', CARD_CHECK_UNAVAILABLE);
    return stripe;
  }

  async function stripeCall<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const failure = error as { type?: string; statusCode?: number };
      if (typeof failure.type !== 'string' || !failure.type.startsWith('Stripe')) throw error;
      logger.warn({ err: error }, 'stripe card check call failed');
      throw new AppError(
        502,
        'verification.card_processor_error',
        'The card processor did not answer. Please try again in a moment.',
      );
    }
  }

  /** Step 1: a SetupIntent for this user; its client secret lets Stripe.js collect and confirm the card. */
  async function start(userId: string) {
    const client = requireStripe();
    const intent = await stripeCall(() =>
      client.setupIntents.create({
        usage: 'on_session',
        allowed_payment_method_types: ['card'],
        // The issuer decides whether to challenge (3-D Secure); Stripe asks it whenever the issuer or rules require.
        payment_method_options: { card: { request_three_d_secure: 'automatic' } },
        metadata: { attestly_purpose: 'age_check', attestly_user: userId },
      }),
    );
    await db.models.CardCheck.create({
      setup_intent_id: intent.id,
      user_id: userId,
      verification_id: null,
      created_at: clock.now(),
      decided_at: null,
    });
    return {
      message: INITIATED,
      setup_intent_id: intent.id,
      client_secret: intent.client_secret as string,
      publishable_key: (settings as NonNullable<typeof settings>).publishableKey,
    };
  }

  /** Claims the check for deciding; false when it is already decided (or being decided by another request). */
  async function claim(userId: string, setupIntentId: string): Promise<boolean> {
    const [claimed] = await db.models.CardCheck.update(
      { decided_at: clock.now() },
      { where: { setup_intent_id: setupIntentId, user_id: userId, decided_at: null } },
    );
    return claimed === 1;
  }
  const release = (setupIntentId: string) =>
    db.models.CardCheck.update({ decided_at: null }, { where: { setup_intent_id: setupIntentId } });

  /** Step 2, after Stripe.js confirmed the card: read the SetupIntent from Stripe and decide. */
  async function finish(
    userId: string,
    setupIntentId: string,
    origin: VerificationOrigin,
  ): Promise<{ verification: VerificationSummary; message: string }> {
    const client = requireStripe();
    const check = await db.models.CardCheck.findOne({
      where: { setup_intent_id: setupIntentId, user_id: userId },
    });
    if (!check) throw notFound('Card check not found');
    if (!(await claim(userId, setupIntentId))) {
      throw new AppError(409, 'verification.card_check_decided', 'This card check has already been decided.');
    }
    let intent: Stripe.SetupIntent;
    try {
      intent = await stripeCall(() =>
        client.setupIntents.retrieve(setupIntentId, { expand: ['payment_method'] }),
      );
    } catch (error) {
      await release(setupIntentId);
      throw error;
    }
    if (intent.status === 'requires_action' || intent.status === 'processing') {
      // The issuer's challenge is still open: nothing to decide yet, and the check stays open.
      await release(setupIntentId);
      throw new AppError(
        409,
        'verification.card_check_not_confirmed',
        'Your card issuer has not confirmed the card yet. Complete its check, then try again.',
      );
    }
    const method = typeof intent.payment_method === 'object' ? intent.payment_method : null;
    const card = method?.card ?? null;
    const now = clock.now();
    const base = {
      userId,
      type: 'age' as const,
      method: 'credit_card' as const,
      ageThreshold: 18,
      needsReview: false,
    };
    const kept = card
      ? {
          brand: card.brand,
          last4: card.last4,
          funding: card.funding,
          country: card.country ?? null,
          three_d_secure_supported: card.three_d_secure_usage?.supported ?? null,
        }
      : {};
    const fingerprint = card?.fingerprint ? cardFingerprint(config.masterKey, card.fingerprint) : null;
    const otherAccounts = fingerprint
      ? await db.models.Verification.count({
          where: { subject_fingerprint: fingerprint, user_id: { [Op.ne]: userId } },
          distinct: true,
          col: 'user_id',
        })
      : 0;
    const details = {
      check: 'stripe_setup_intent',
      setup_intent_status: intent.status,
      ...kept,
      card_seen_on_other_accounts: otherAccounts,
    };
    const decide = async (
      status: 'approved' | 'rejected' | 'failed',
      message: string,
      confidence: number,
      reason: string,
    ) => {
      const row = await verifications.record(
        {
          ...base,
          status,
          message,
          confidence,
          details: { ...details, reason },
          fingerprint,
          ...(status === 'approved' ? { proves: { minAge: 18 } } : {}),
        },
        origin,
      );
      await db.models.CardCheck.update(
        { verification_id: row.id },
        { where: { setup_intent_id: setupIntentId } },
      );
      return { verification: presentVerification(row, now), message };
    };

    if (intent.status !== 'succeeded' || !card) return decide('failed', NOT_CONFIRMED, 0, 'not_confirmed');
    if (card.funding !== 'credit') return decide('rejected', NOT_CREDIT, 0, `funding_${card.funding}`);
    const countries = (settings as NonNullable<typeof settings>).countries;
    if (countries.length > 0 && !countries.includes(card.country ?? '')) {
      return decide('rejected', wrongCountry(card.country ?? null), 0, 'issuing_country');
    }
    return decide(
      'approved',
      'Your age is verified: your card issuer confirmed a credit card in your name.',
      0.9,
      'credit_card_confirmed',
    );
  }

  return { available: stripe !== null, start, finish };
}

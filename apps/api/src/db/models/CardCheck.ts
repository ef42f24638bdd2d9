import { nullable, plainTable, primaryKey, required, sql } from './columns';

/** A Stripe SetupIntent created for a user's credit-card age check (modules/users/verification/credit-card.ts). */
export class CardCheck extends plainTable('card_checks', {
  setup_intent_id: primaryKey(sql.string(255)),
  user_id: required(sql.uuid()),
  verification_id: nullable(sql.uuid()),
  created_at: required(sql.date()),
  /** Set once, atomically, when the check is decided: the SetupIntent cannot prove twice. */
  decided_at: nullable(sql.date()),
}) {}

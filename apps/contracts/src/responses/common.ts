import * as v from 'valibot';
import type { ErrorEnvelope } from '../errors';

/**
 * Shapes of the API's answers as valibot schemas. Routes name them where they are mounted (the OpenAPI document is
 * built from them) and the API's integration tests check every JSON answer against them. Where an answer already
 * has an interface in these contracts, the schema restates it and an `agree` line makes the compiler prove the two
 * still match: a field added to the interface without the schema fails the typecheck.
 */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const agree = <T extends true>(value: T) => value;

export const isoDate = v.pipe(v.string(), v.isoTimestamp());
export const nullableIsoDate = v.nullable(isoDate);
export const isoDay = v.pipe(v.string(), v.isoDate());
export const uuid = v.pipe(v.string(), v.uuid());
/** A share between 0 and 1. */
export const share = v.pipe(v.number(), v.minValue(0), v.maxValue(1));
/** A free-form JSON object. */
export const jsonObject = v.record(v.string(), v.unknown());

export const messageSchema = v.object({ message: v.string() });

export const errorEnvelopeSchema = v.object({
  detail: v.string(),
  code: v.string(),
  errors: v.optional(v.array(v.object({ path: v.string(), message: v.string() }))),
  request_id: v.optional(v.string()),
});

export const siteConfigSchema = v.object({
  support_email: v.pipe(v.string(), v.email()),
  /**
   * What this installation offers that depends on its configuration. The screens mention a method only when it is
   * on: the credit-card age check needs Stripe (card_check: its publishable key for Stripe.js, else null).
   */
  capabilities: v.object({
    card_check: v.nullable(v.object({ publishable_key: v.string(), stripe_js_url: v.string() })),
  }),
});

export const healthSchema = v.object({ status: v.literal('ok') });

export const readinessSchema = v.object({
  status: v.picklist(['ready', 'not_ready']),
  checks: v.record(v.string(), v.looseObject({ ok: v.boolean() })),
});

agree<Same<v.InferOutput<typeof errorEnvelopeSchema>, ErrorEnvelope>>(true);

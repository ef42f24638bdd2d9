import * as v from 'valibot';
import type { LoginResponse, SessionSummary, UserProfile } from '@attestly/contracts';

/**
 * Response shapes for the OpenAPI document. Requests are validated by the contracts' schemas directly; answers are
 * typed by interfaces there, so these schemas restate them and the `Same` checks below make the compiler prove they
 * still agree: a field added to `UserProfile` without updating the document fails the typecheck.
 */
const isoDate = v.pipe(v.string(), v.isoTimestamp());
const nullableIsoDate = v.nullable(isoDate);

export const userProfileSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  full_name: v.string(),
  email: v.pipe(v.string(), v.email()),
  phone: v.nullable(v.string()),
  country: v.nullable(v.string()),
  state: v.nullable(v.string()),
  city: v.nullable(v.string()),
  profile_image_url: v.nullable(v.string()),
  email_verified_at: nullableIsoDate,
  phone_verified_at: nullableIsoDate,
  age_verified: v.boolean(),
  location_verified: v.boolean(),
  identity_verified: v.boolean(),
  age_verified_at: nullableIsoDate,
  location_verified_at: nullableIsoDate,
  identity_verified_at: nullableIsoDate,
  is_active: v.boolean(),
  is_verified: v.boolean(),
  is_partner: v.boolean(),
  created_at: isoDate,
  updated_at: isoDate,
});

export const loginResponseSchema = v.object({
  user: userProfileSchema,
  access_token: v.string(),
  token_type: v.literal('Bearer'),
  expires_at: isoDate,
});

export const sessionSummarySchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  current: v.boolean(),
  remember: v.boolean(),
  ip_address: v.nullable(v.string()),
  user_agent: v.nullable(v.string()),
  created_at: isoDate,
  last_used_at: nullableIsoDate,
  expires_at: isoDate,
});

export const sessionListSchema = v.object({
  sessions: v.array(sessionSummarySchema),
  total_count: v.number(),
});

export const messageSchema = v.object({ message: v.string() });

export const emailVerifiedSchema = v.object({ message: v.string(), email_verified_at: v.optional(isoDate) });

export const errorEnvelopeSchema = v.object({
  detail: v.string(),
  code: v.string(),
  errors: v.optional(v.array(v.object({ path: v.string(), message: v.string() }))),
  request_id: v.optional(v.string()),
});

export const siteConfigSchema = v.object({ support_email: v.pipe(v.string(), v.email()) });

export const healthSchema = v.object({ status: v.literal('ok') });

export const readinessSchema = v.object({
  status: v.picklist(['ready', 'not_ready']),
  checks: v.record(v.string(), v.looseObject({ ok: v.boolean() })),
});

export const photoUploadSchema = v.object({
  photo: v.pipe(v.string(), v.description('JPG, GIF or PNG, 1MB max')),
});

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agree = <T extends true>(value: T) => value;
agree<Same<v.InferOutput<typeof userProfileSchema>, UserProfile>>(true);
agree<Same<v.InferOutput<typeof loginResponseSchema>, LoginResponse>>(true);
agree<Same<v.InferOutput<typeof sessionSummarySchema>, SessionSummary>>(true);

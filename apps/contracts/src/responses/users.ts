import * as v from 'valibot';
import type { LoginResponse, SessionSummary, UserProfile } from '../users';
import { agree, isoDate, jsonObject, nullableIsoDate, type Same } from './common';
import { verificationSummarySchema } from './verification';

/** Answers of the end-user account, profile and session endpoints. */
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

/** PUT /users/profile: a new address waits for its confirmation link, so `email` is still the current one. */
export const updatedProfileSchema = v.object({
  ...userProfileSchema.entries,
  pending_email: v.pipe(
    v.optional(v.pipe(v.string(), v.email())),
    v.description('The new address asked for, until its confirmation link is followed'),
  ),
});

/** GET /locations/countries/{code}/subdivisions: the names the location check compares a declared state with. */
export const subdivisionListSchema = v.object({
  country: v.string(),
  subdivisions: v.array(v.string()),
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

export const emailVerifiedSchema = v.object({ message: v.string(), email_verified_at: v.optional(isoDate) });

export const phoneCodeSentSchema = v.object({
  message: v.string(),
  delivery: v.pipe(
    v.picklist(['sms', 'log']),
    v.description('`log`: no SMS gateway is configured and the operator reads the code from the server log'),
  ),
});

/** Multipart fields of POST /users/profile/photo. */
export const photoUploadSchema = v.object({
  photo: v.pipe(v.string(), v.description('JPG, GIF or PNG, 1MB max')),
});

/** GET /users/export: everything Attestly holds about the signed-in user (GDPR Art. 15 and 20). */
export const userExportSchema = v.object({
  format: v.literal('attestly.user-export/1'),
  exported_at: isoDate,
  profile: v.object({
    ...userProfileSchema.entries,
    last_login_at: nullableIsoDate,
    photo: v.nullable(v.object({ content_type: v.string(), data_base64: v.string() })),
  }),
  contact_verification: v.object({
    email: v.string(),
    email_verified_at: nullableIsoDate,
    phone: v.nullable(v.string()),
    phone_verified_at: nullableIsoDate,
    phone_awaiting_verification: v.nullable(v.string()),
  }),
  proven_facts: v.object({
    minimum_age: v.nullable(v.number()),
    age_verified_at: nullableIsoDate,
    age_valid_until: nullableIsoDate,
    location: v.nullable(v.object({ country: v.string(), state: v.nullable(v.string()) })),
    location_verified_at: nullableIsoDate,
    location_valid_until: nullableIsoDate,
    identity_verified_at: nullableIsoDate,
    identity_valid_until: nullableIsoDate,
  }),
  verifications: v.array(
    v.object({
      ...verificationSummarySchema.entries,
      review_notes: v.array(v.object({ timestamp: v.string(), note: v.string() })),
      valid_until: nullableIsoDate,
    }),
  ),
  connected_sites: v.array(
    v.object({
      grant_id: v.string(),
      site: v.nullable(v.object({ name: v.string(), domain: v.string() })),
      partner: v.nullable(v.object({ company_name: v.string() })),
      scopes: v.array(v.string()),
      age_threshold: v.nullable(v.number()),
      granted_at: nullableIsoDate,
      expires_at: nullableIsoDate,
      last_used_at: nullableIsoDate,
      revoked_at: nullableIsoDate,
      revoked_reason: v.nullable(v.string()),
    }),
  ),
  sessions: v.array(
    v.object({
      id: v.string(),
      created_at: nullableIsoDate,
      last_used_at: nullableIsoDate,
      expires_at: nullableIsoDate,
      remember_me: v.boolean(),
      ip_address: v.nullable(v.string()),
      user_agent: v.nullable(v.string()),
    }),
  ),
  newsletter: v.nullable(
    v.object({
      email: v.string(),
      subscribed_at: nullableIsoDate,
      confirmed_at: nullableIsoDate,
      unsubscribed_at: nullableIsoDate,
    }),
  ),
  audit_entries: v.array(
    v.object({
      id: v.union([v.string(), v.number()]),
      event_type: v.string(),
      severity: v.string(),
      created_at: nullableIsoDate,
      ip_address: v.nullable(v.string()),
      user_agent: v.nullable(v.string()),
      details: v.union([jsonObject, v.unknown()]),
    }),
  ),
});

agree<Same<v.InferOutput<typeof userProfileSchema>, UserProfile>>(true);
agree<Same<v.InferOutput<typeof loginResponseSchema>, LoginResponse>>(true);
agree<Same<v.InferOutput<typeof sessionSummarySchema>, SessionSummary>>(true);

import * as v from 'valibot';
import { AGE_CHECK_METHODS, type PartnerAgeAnswer } from '../age-check';
import { SCOPES } from '../constants';
import { AGE_THRESHOLDS } from '../verification';
import type { ConnectedPartner, InteractionDetails, InteractionRedirect, UserToken } from '../oauth';
import { CLIENT_TYPES, type PartnerProfile, type SiteView, type TokenValidation } from '../partners';
import { agree, isoDate, nullableIsoDate, type Same } from './common';
import { userProfileSchema } from './users';

/** Answers of the partner account, site, user token and OAuth interaction endpoints. */
const scope = v.picklist(SCOPES);

export const partnerProfileSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  email: v.pipe(v.string(), v.email()),
  company_name: v.string(),
  partner_name: v.string(),
  contact_name: v.nullable(v.string()),
  phone: v.nullable(v.string()),
  website: v.nullable(v.string()),
  business_type: v.nullable(v.string()),
  status: v.string(),
  email_verified: v.boolean(),
  plan: v.string(),
  created_at: isoDate,
  updated_at: isoDate,
  last_login: nullableIsoDate,
});

export const partnerLoginResponseSchema = v.object({
  partner: partnerProfileSchema,
  access_token: v.string(),
  token_type: v.literal('Bearer'),
  expires_at: isoDate,
});

export const siteSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  site_name: v.string(),
  domain: v.string(),
  description: v.nullable(v.string()),
  redirect_uris: v.array(v.string()),
  allowed_scopes: v.array(scope),
  client_id: v.string(),
  client_type: v.picklist(CLIENT_TYPES),
  client_secret: v.optional(
    v.pipe(v.string(), v.description('Only in the answer that created the site or rotated its secret')),
  ),
  icon_url: v.nullable(v.string()),
  is_active: v.boolean(),
  oauth_authorizations: v.number(),
  verification_count: v.number(),
  sandbox: v.boolean(),
  created_at: isoDate,
  updated_at: isoDate,
});

export const siteIconUploadSchema = v.object({
  icon: v.pipe(v.string(), v.description('PNG, JPG, GIF or WebP, 1MB max')),
});

export const siteListSchema = v.object({ sites: v.array(siteSchema), total_count: v.number() });

export const tokenValidationSchema = v.object({
  active: v.boolean(),
  scope: v.optional(v.string()),
  client_id: v.optional(v.string()),
  site_id: v.optional(v.string()),
  sub: v.optional(v.string()),
  token_type: v.optional(v.string()),
  exp: v.optional(v.number()),
  iat: v.optional(v.number()),
});

export const userTokenSchema = v.object({
  id: v.string(),
  site_id: v.string(),
  site_name: v.string(),
  partner_id: v.string(),
  partner_name: v.string(),
  age_threshold: v.nullable(v.number()),
  scopes: v.array(scope),
  created_at: isoDate,
  expires_at: isoDate,
  last_used_at: nullableIsoDate,
  revoked: v.boolean(),
  revoked_at: nullableIsoDate,
  jurisdiction: v.nullable(v.string()),
});

export const userTokenListSchema = v.object({ tokens: v.array(userTokenSchema), total_count: v.number() });

export const connectedPartnerSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  partner_name: v.string(),
  sites: v.array(v.object({ id: v.string(), site_name: v.string(), domain: v.string() })),
  scopes: v.array(scope),
  active_tokens: v.number(),
  first_connected_at: isoDate,
  last_used_at: nullableIsoDate,
});

export const connectedPartnerListSchema = v.object({
  partners: v.array(connectedPartnerSchema),
  total_count: v.number(),
});

export const revokedTokensSchema = v.object({ revoked_tokens: v.number() });

export const interactionDetailsSchema = v.object({
  uid: v.string(),
  prompt: v.picklist(['login', 'consent']),
  reasons: v.array(v.string()),
  site: v.object({
    client_id: v.string(),
    site_name: v.string(),
    domain: v.string(),
    icon_url: v.nullable(v.string()),
    partner_name: v.string(),
    redirect_host: v.string(),
    sandbox: v.boolean(),
  }),
  scopes: v.array(
    v.object({
      scope,
      title: v.string(),
      description: v.string(),
      required: v.boolean(),
      proven: v.boolean(),
      previously_granted: v.boolean(),
    }),
  ),
  unproven_scopes: v.array(scope),
  user: v.nullable(v.object({ email: v.string(), full_name: v.string() })),
  verify_url: v.nullable(v.string()),
  wallet: v.nullable(
    v.object({
      credentials: v.array(v.object({ id: v.string(), name: v.string() })),
      age_over: v.nullable(v.record(v.string(), v.boolean())),
      valid_until: v.nullable(v.string()),
      refused: v.nullable(v.string()),
    }),
  ),
});

export const interactionRedirectSchema = v.object({
  redirect_to: v.pipe(
    v.string(),
    v.description('Navigate the browser here to resume the authorization request'),
  ),
});

export const interactionLoginResponseSchema = v.object({
  redirect_to: v.string(),
  user: v.optional(userProfileSchema),
  access_token: v.optional(v.string()),
  token_type: v.optional(v.literal('Bearer')),
  expires_at: v.optional(isoDate),
});

agree<Same<v.InferOutput<typeof partnerProfileSchema>, PartnerProfile>>(true);
agree<Same<v.InferOutput<typeof siteSchema>, SiteView>>(true);
agree<Same<v.InferOutput<typeof tokenValidationSchema>, TokenValidation>>(true);
agree<Same<v.InferOutput<typeof userTokenSchema>, UserToken>>(true);
agree<Same<v.InferOutput<typeof connectedPartnerSchema>, ConnectedPartner>>(true);
agree<Same<v.InferOutput<typeof interactionDetailsSchema>, InteractionDetails>>(true);
agree<Same<v.InferOutput<typeof interactionRedirectSchema>, InteractionRedirect>>(true);

export const partnerAgeAnswerSchema = v.object({
  verified: v.boolean(),
  user_id: v.string(),
  age_threshold: v.picklist(AGE_THRESHOLDS),
  method: v.nullable(v.picklist(AGE_CHECK_METHODS)),
  verification_timestamp: nullableIsoDate,
  verify_url: v.nullable(v.string()),
});
agree<Same<v.InferOutput<typeof partnerAgeAnswerSchema>, PartnerAgeAnswer>>(true);

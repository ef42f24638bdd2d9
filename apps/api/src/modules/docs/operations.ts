import type * as v from 'valibot';
import { API_BASE_PATH, cardBody } from '@attestly/contracts';
import {
  emailVerifiedSchema,
  errorEnvelopeSchema,
  healthSchema,
  loginResponseSchema,
  messageSchema,
  photoUploadSchema,
  readinessSchema,
  sessionListSchema,
  siteConfigSchema,
  userProfileSchema,
} from './schemas';
import {
  connectedPartnerListSchema,
  interactionDetailsSchema,
  interactionLoginResponseSchema,
  interactionRedirectSchema,
  partnerLoginResponseSchema,
  partnerProfileSchema,
  revokedTokensSchema,
  siteListSchema,
  siteIconUploadSchema,
  siteSchema,
  tokenValidationSchema,
  userTokenListSchema,
} from './partner-schemas';
import {
  ageVerificationResultSchema,
  ageVerificationUploadSchema,
  documentAnswerSchema,
  documentUploadSchema,
  verificationAnswerSchema,
  verificationListSchema,
  verificationStatusSchema,
  verificationSummarySchema,
} from './verification-schemas';

/** Who may call it; for routed endpoints this is read from the route itself (see mounted-routes.ts). */
export type Security = 'none' | 'user' | 'partner';

export interface OperationResponse {
  description: string;
  schema?: v.GenericSchema;
  /** Defaults to application/json when a schema is given. */
  contentType?: string;
}

/** One documented endpoint. Paths use the router's syntax (`:id`); the document turns them into `{id}`. */
export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  tag: string;
  summary: string;
  description?: string;
  security: Security;
  /** Only where the route does not validate one itself (multipart uploads): routed schemas are read from it. */
  body?: v.GenericSchema;
  /** multipart/form-data instead of JSON. */
  multipart?: boolean;
  /** The endpoint is rate-limited (429 with Retry-After). */
  limited?: boolean;
  responses: Record<number, OperationResponse>;
}

export const TAGS = [
  { name: 'Accounts', description: 'Sign-up, sign-in, session refresh and sign-out for end users.' },
  { name: 'Profile', description: "The signed-in user's own profile, photo and contact verification." },
  { name: 'Security', description: 'Passwords, password reset, active sessions and account deletion.' },
  { name: 'Newsletter', description: 'Double opt-in subscription to News & Insights.' },
  {
    name: 'Tokens',
    description:
      "The signed-in user's grants to partner sites (OAuth tokens) and the partners they are connected to.",
  },
  {
    name: 'OAuth',
    description:
      'JSON steps of an OpenID Connect authorization request (sign-in and consent screens). The protocol endpoints themselves live under /oauth2 (see /oauth2/.well-known/openid-configuration).',
  },
  { name: 'Partners', description: 'Partner accounts: registration, sign-in, profile and token validation.' },
  {
    name: 'Sites',
    description: "A partner's sites; each one is an OpenID Connect client from the moment it is created.",
  },
  {
    name: 'Verification',
    description:
      'Proving age, location and identity on this server: camera (photo or 5-second video), identity document, payment card (format check) and connection location. Media is analysed on the box and deleted unless a reviewer must see it.',
  },
  { name: 'Site', description: 'Public configuration and this API description.' },
  { name: 'Operations', description: 'Liveness, readiness and metrics for orchestrators and monitoring.' },
];

const api = (path: string) => API_BASE_PATH + path;
const ok = (description: string, schema?: v.GenericSchema): OperationResponse => ({ description, schema });

/**
 * Descriptions of the endpoints: tag, summary, answers. The document lists every mounted route whether or not it is
 * described here (see openapi.ts), and takes request schemas from the routes' own validation, so it cannot drift
 * from the code; a test fails when an entry here names a route that does not exist.
 */
export const OPERATIONS: Operation[] = [
  {
    method: 'post',
    path: api('/users/register'),
    tag: 'Accounts',
    summary: 'Create an account',
    description:
      'The answer is the same whether or not the address is already registered; its owner is told by mail.',
    security: 'none',
    limited: true,
    responses: { 201: ok('Account created', messageSchema) },
  },
  {
    method: 'post',
    path: api('/users/login'),
    tag: 'Accounts',
    summary: 'Sign in',
    description:
      'Returns an opaque bearer token (prefix `atu_`). `rememberMe` chooses the long-lived session; repeated failures lock the account for a while.',
    security: 'none',
    limited: true,
    responses: { 200: ok('Signed in', loginResponseSchema) },
  },
  {
    method: 'post',
    path: api('/users/refresh-token'),
    tag: 'Accounts',
    summary: 'Rotate the session token',
    description: 'The old token stops working at once; the remember-me choice is kept.',
    security: 'user',
    responses: { 200: ok('New token', loginResponseSchema) },
  },
  {
    method: 'post',
    path: api('/users/logout'),
    tag: 'Accounts',
    summary: 'Sign out',
    security: 'user',
    responses: { 204: ok('Session ended') },
  },
  {
    method: 'get',
    path: api('/users/profile'),
    tag: 'Profile',
    summary: 'Read your profile',
    security: 'user',
    responses: { 200: ok('Profile', userProfileSchema) },
  },
  {
    method: 'put',
    path: api('/users/profile'),
    tag: 'Profile',
    summary: 'Update your profile',
    description: 'Changing the email or phone clears its verified flag.',
    security: 'user',
    responses: { 200: ok('Updated profile', userProfileSchema) },
  },
  {
    method: 'post',
    path: api('/users/profile/photo'),
    tag: 'Profile',
    summary: 'Upload a profile photo',
    description:
      'Multipart field `photo`: a JPG, GIF or PNG of at most 1 MB (the content is sniffed, not trusted).',
    security: 'user',
    body: photoUploadSchema,
    multipart: true,
    responses: { 200: ok('Updated profile with profile_image_url', userProfileSchema) },
  },
  {
    method: 'get',
    path: api('/media/profile-photos/:key'),
    tag: 'Profile',
    summary: 'Fetch a profile photo',
    description: 'Capability URL: the key is 192 random bits and is only ever shown to the photo’s owner.',
    security: 'none',
    responses: { 200: { description: 'The image', contentType: 'image/*' } },
  },
  {
    method: 'post',
    path: api('/users/send-email-verification'),
    tag: 'Profile',
    summary: 'Email a verification link',
    security: 'user',
    limited: true,
    responses: { 202: ok('Mail sent', messageSchema) },
  },
  {
    method: 'post',
    path: api('/users/verify-email'),
    tag: 'Profile',
    summary: 'Confirm an email address',
    description: 'The token comes from the link in the verification mail.',
    security: 'none',
    limited: true,
    responses: { 200: ok('Verified', emailVerifiedSchema) },
  },
  {
    method: 'post',
    path: api('/users/send-phone-verification'),
    tag: 'Profile',
    summary: 'Text a 6-digit code to your phone',
    description: 'Uses the given phone, or the one on the profile.',
    security: 'user',
    limited: true,
    responses: { 202: ok('Code sent', messageSchema) },
  },
  {
    method: 'post',
    path: api('/users/verify-phone'),
    tag: 'Profile',
    summary: 'Confirm your phone with the code',
    security: 'user',
    limited: true,
    responses: { 200: ok('Updated profile', userProfileSchema) },
  },
  {
    method: 'post',
    path: api('/users/change-password'),
    tag: 'Security',
    summary: 'Change your password',
    description: 'Signs out every other session.',
    security: 'user',
    responses: { 200: ok('Changed', messageSchema) },
  },
  {
    method: 'post',
    path: api('/users/forgot-password'),
    tag: 'Security',
    summary: 'Mail a password reset link',
    description: 'Always answers 202, so it cannot be used to find out who has an account.',
    security: 'none',
    limited: true,
    responses: { 202: ok('Accepted', messageSchema) },
  },
  {
    method: 'post',
    path: api('/users/reset-password'),
    tag: 'Security',
    summary: 'Set a new password with a reset link',
    description: 'Signs out every session of the account.',
    security: 'none',
    limited: true,
    responses: { 200: ok('Password reset', messageSchema) },
  },
  {
    method: 'get',
    path: api('/users/sessions'),
    tag: 'Security',
    summary: 'List your active sessions',
    security: 'user',
    responses: { 200: ok('Sessions, newest first', sessionListSchema) },
  },
  {
    method: 'delete',
    path: api('/users/sessions/:id'),
    tag: 'Security',
    summary: 'Sign out one session',
    security: 'user',
    responses: { 204: ok('Session ended') },
  },
  {
    method: 'delete',
    path: api('/users/account'),
    tag: 'Security',
    summary: 'Delete your account',
    description: 'Requires the password; signs out everywhere.',
    security: 'user',
    responses: { 204: ok('Account deleted') },
  },
  {
    method: 'post',
    path: api('/newsletter/subscribe'),
    tag: 'Newsletter',
    summary: 'Subscribe (sends a confirmation mail)',
    security: 'none',
    limited: true,
    responses: { 202: ok('Confirmation mail sent', messageSchema) },
  },
  {
    method: 'post',
    path: api('/newsletter/confirm'),
    tag: 'Newsletter',
    summary: 'Confirm a subscription',
    security: 'none',
    limited: true,
    responses: { 200: ok('Confirmed', messageSchema) },
  },
  {
    method: 'post',
    path: api('/newsletter/unsubscribe'),
    tag: 'Newsletter',
    summary: 'Unsubscribe',
    security: 'none',
    limited: true,
    responses: { 200: ok('Unsubscribed', messageSchema) },
  },
  {
    method: 'get',
    path: api('/users/tokens'),
    tag: 'Tokens',
    summary: 'List your tokens',
    description:
      'Every grant you gave a partner site, active, expired or revoked (spec 01 §3 "Access token").',
    security: 'user',
    responses: { 200: ok('Tokens, newest first', userTokenListSchema) },
  },
  {
    method: 'delete',
    path: api('/users/tokens/:id'),
    tag: 'Tokens',
    summary: 'Revoke a token',
    description: 'The site loses access at once: its access and refresh tokens stop working.',
    security: 'user',
    responses: { 204: ok('Revoked'), 404: ok('Not one of your tokens') },
  },
  {
    method: 'get',
    path: api('/users/connected-partners'),
    tag: 'Tokens',
    summary: 'List the partners you are connected to',
    security: 'user',
    responses: { 200: ok('Partners with at least one active token', connectedPartnerListSchema) },
  },
  {
    method: 'delete',
    path: api('/users/connected-partners/:id'),
    tag: 'Tokens',
    summary: 'Disconnect a partner',
    description: "Revokes every active token of all the partner's sites.",
    security: 'user',
    responses: { 200: ok('Number of tokens revoked', revokedTokensSchema) },
  },
  {
    method: 'get',
    path: api('/oauth/interactions/:uid'),
    tag: 'OAuth',
    summary: 'Describe a pending sign-in or consent step',
    description:
      'Bound to the browser that started the authorization request by its interaction cookie; a uid from another browser or an expired one answers 404.',
    security: 'none',
    responses: {
      200: ok('The site, the requested scopes and what you have proven', interactionDetailsSchema),
    },
  },
  {
    method: 'post',
    path: api('/oauth/interactions/:uid/login'),
    tag: 'OAuth',
    summary: 'Sign in inside an authorization request',
    description:
      'With email and password (same checks and lockout as /users/login; the answer also carries a new session), or with an Attestly user bearer token and no body.',
    security: 'none',
    limited: true,
    responses: {
      200: ok(
        'Where to continue, plus the new session when a password was used',
        interactionLoginResponseSchema,
      ),
    },
  },
  {
    method: 'post',
    path: api('/oauth/interactions/:uid/consent'),
    tag: 'OAuth',
    summary: 'Grant the site the chosen scopes',
    description: '`basic_info` must be among them. Consent is remembered per site and scope set.',
    security: 'none',
    responses: { 200: ok('Where to continue', interactionRedirectSchema) },
  },
  {
    method: 'post',
    path: api('/oauth/interactions/:uid/abort'),
    tag: 'OAuth',
    summary: 'Deny the request',
    description: 'The site receives `access_denied` ("User denied the request").',
    security: 'none',
    responses: { 200: ok('Where to continue', interactionRedirectSchema) },
  },
  {
    method: 'post',
    path: api('/partners/register'),
    tag: 'Partners',
    summary: 'Create a partner account',
    description:
      'The answer is the same whether or not the address is already registered; its owner is told by mail.',
    security: 'none',
    limited: true,
    responses: { 201: ok('Account created', messageSchema) },
  },
  {
    method: 'post',
    path: api('/partners/login'),
    tag: 'Partners',
    summary: 'Sign in as a partner',
    description:
      'Returns an opaque bearer token (prefix `atp_`). Repeated failures lock the account for a while; unknown addresses behave exactly alike.',
    security: 'none',
    limited: true,
    responses: { 200: ok('Signed in', partnerLoginResponseSchema) },
  },
  {
    method: 'post',
    path: api('/partners/logout'),
    tag: 'Partners',
    summary: 'Sign out',
    security: 'partner',
    responses: { 204: ok('Session ended') },
  },
  {
    method: 'get',
    path: api('/partners/profile'),
    tag: 'Partners',
    summary: 'Read your partner profile',
    security: 'partner',
    responses: { 200: ok('Profile', partnerProfileSchema) },
  },
  {
    method: 'put',
    path: api('/partners/profile'),
    tag: 'Partners',
    summary: 'Update your partner profile',
    security: 'partner',
    responses: { 200: ok('Updated profile', partnerProfileSchema) },
  },
  {
    method: 'post',
    path: api('/partners/validate-token'),
    tag: 'Partners',
    summary: 'Check an access token',
    description:
      "RFC 7662 introspection semantics, for tokens of your own sites only: anyone else's token is reported as inactive.",
    security: 'partner',
    limited: true,
    responses: { 200: ok('Whether the token is active and what it grants', tokenValidationSchema) },
  },
  {
    method: 'get',
    path: api('/partners/sites'),
    tag: 'Sites',
    summary: 'List your sites',
    security: 'partner',
    responses: { 200: ok('Sites', siteListSchema) },
  },
  {
    method: 'post',
    path: api('/partners/sites'),
    tag: 'Sites',
    summary: 'Create a site (an OpenID Connect client)',
    description:
      'Confidential sites get a `client_secret` in this answer only; it is stored as a keyed hash and cannot be shown again. Redirect URIs must be https except for localhost.',
    security: 'partner',
    responses: { 201: ok('Created site with its client credentials', siteSchema) },
  },
  {
    method: 'get',
    path: api('/partners/sites/:id'),
    tag: 'Sites',
    summary: 'Read one of your sites',
    security: 'partner',
    responses: { 200: ok('Site', siteSchema), 404: ok('Not one of your sites') },
  },
  {
    method: 'put',
    path: api('/partners/sites/:id'),
    tag: 'Sites',
    summary: 'Update one of your sites',
    security: 'partner',
    responses: { 200: ok('Updated site', siteSchema), 404: ok('Not one of your sites') },
  },
  {
    method: 'delete',
    path: api('/partners/sites/:id'),
    tag: 'Sites',
    summary: 'Delete one of your sites',
    description: "Revokes every user's grant to the site.",
    security: 'partner',
    responses: { 204: ok('Deleted'), 404: ok('Not one of your sites') },
  },
  {
    method: 'post',
    path: api('/partners/sites/:id/client-secret'),
    tag: 'Sites',
    summary: 'Rotate the client secret',
    description: 'The old secret stops working at once; the new one is in this answer only.',
    security: 'partner',
    responses: { 200: ok('Site with its new client_secret', siteSchema), 404: ok('Not one of your sites') },
  },
  {
    method: 'post',
    path: api('/partners/sites/:id/icon'),
    tag: 'Sites',
    summary: 'Upload a site icon',
    description:
      'Multipart field `icon`: a PNG, JPG, GIF or WebP of at most 1 MB (the content is sniffed, not trusted).',
    security: 'partner',
    body: siteIconUploadSchema,
    multipart: true,
    responses: { 200: ok('Site with its icon_url', siteSchema), 404: ok('Not one of your sites') },
  },
  {
    method: 'get',
    path: api('/media/site-icons/:key'),
    tag: 'Sites',
    summary: 'Fetch a site icon',
    description: 'Public, so that consent screens can show it with an <img>.',
    security: 'none',
    responses: { 200: { description: 'The image', contentType: 'image/*' } },
  },
  {
    method: 'post',
    path: api('/age-verification/verify-age'),
    tag: 'Verification',
    summary: 'Verify your age with a photo or a 5-second video',
    description:
      'Multipart fields `media_file` and `media_type` (spec 01 §7 "Age verification by camera"). The face must clear a calibrated cut-off for the threshold (default 18); a video must also pass the active liveness challenge (a head turn and a blink). A single photo cannot show that a live person is present, so unless the operator allows it (`ATTESTLY_PHOTO_CAN_APPROVE`) a photo is rejected with a message pointing to video or document. Without a token the answer is 401 "Please log in to verify your age". The media is never stored.',
    security: 'user',
    body: ageVerificationUploadSchema,
    multipart: true,
    limited: true,
    responses: {
      200: ok(
        'The decision, approved or rejected, with the estimate and the liveness fields',
        ageVerificationResultSchema,
      ),
      422: ok(
        'Missing or unreadable file, no face, several faces, or a video over 5 seconds; `detail` says what to do',
        errorEnvelopeSchema,
      ),
      503: ok(
        'The vision engine is starting, busy or turned off; retry after the Retry-After header',
        errorEnvelopeSchema,
      ),
    },
  },
  {
    method: 'post',
    path: api('/users/verify/document'),
    tag: 'Verification',
    summary: 'Verify your age or identity with a passport or ID card',
    description:
      'Multipart fields `file`, `selfie_video` and `document_type`. The ICAO 9303 machine-readable zone is read on the box; check digits, expiry and age are checked. A claim is approved automatically only when the document is also bound to its holder: a portrait face is found on the document, the live video passes its challenge and matches the portrait, the printed dates agree with the MRZ where readable, and the document (known only by a keyed hash of its number) is not proving another account. Anything short of that waits for a reviewer (status `pending`, `needs_manual_review`, `document_analysis.holder_binding.review_reasons`) and only then are the document and the video kept, encrypted, until the review or the retention limit. Authenticity features are not checked (`authentic` is null).',
    security: 'user',
    body: documentUploadSchema,
    multipart: true,
    limited: true,
    responses: {
      201: ok('The decision and the document analysis', documentAnswerSchema),
      422: ok('No file, or an invalid field', errorEnvelopeSchema),
      503: ok(
        'The document reader is starting, busy or turned off; retry after the Retry-After header',
        errorEnvelopeSchema,
      ),
    },
  },
  {
    method: 'post',
    path: api('/users/verify/credit-card'),
    tag: 'Verification',
    summary: 'Check a payment card (format only)',
    description:
      'Luhn checksum, brand, expiry (this year to 10 years ahead) and security-code format. No card issuer is asked, so nothing is proven: the verification stays `pending` and grants no fact. The card number and CVV are never stored or logged; only the brand, the last four digits and a keyed fingerprint are kept.',
    security: 'user',
    body: cardBody,
    limited: true,
    responses: {
      201: ok('Recorded as pending, format-checked only', verificationAnswerSchema),
      422: ok('Invalid fields: `errors` lists every problem', errorEnvelopeSchema),
    },
  },
  {
    method: 'post',
    path: api('/users/verify/location'),
    tag: 'Verification',
    summary: 'Verify your location from your connection',
    description:
      'The address the request comes from is looked up in an on-box geolocation database (GeoLite2 City by MaxMind, CC BY-SA 4.0, packaged by ip-location-db) and compared with the country and state on your profile. Private and non-routable addresses cannot be located.',
    security: 'user',
    limited: true,
    responses: {
      201: ok('The decision with the located country and region', verificationAnswerSchema),
      422: ok('No country on your profile to compare with', errorEnvelopeSchema),
    },
  },
  {
    method: 'post',
    path: api('/users/verify'),
    tag: 'Verification',
    summary: 'Verify by method',
    description:
      '`method` is `credit_card` (with the card fields of /users/verify/credit-card) or `ip_geolocation`/`location`. Uploads cannot travel as JSON: `document` and `facial_recognition` answer 422 naming the multipart route to use.',
    security: 'user',
    limited: true,
    responses: { 201: ok('The decision', verificationAnswerSchema) },
  },
  {
    method: 'get',
    path: api('/users/verification-status'),
    tag: 'Verification',
    summary: 'What you have proven',
    description:
      'Age (with the minimum age proven), location and identity, each with when it was proven and until when it is valid; the overall state (spec 01 §4) and your 10 most recent verifications.',
    security: 'user',
    responses: { 200: ok('Your verification status', verificationStatusSchema) },
  },
  {
    method: 'get',
    path: api('/users/verifications'),
    tag: 'Verification',
    summary: 'List your verifications',
    security: 'user',
    responses: { 200: ok('Verifications, newest first', verificationListSchema) },
  },
  {
    method: 'get',
    path: api('/users/verifications/:id'),
    tag: 'Verification',
    summary: 'Read one of your verifications',
    security: 'user',
    responses: {
      200: ok('Verification', verificationSummarySchema),
      404: ok('Not one of your verifications'),
    },
  },
  {
    method: 'get',
    path: api('/site-config'),
    tag: 'Site',
    summary: 'Public site configuration',
    security: 'none',
    responses: { 200: ok('Configuration', siteConfigSchema) },
  },
  {
    method: 'get',
    path: api('/openapi.json'),
    tag: 'Site',
    summary: 'This document',
    security: 'none',
    responses: { 200: { description: 'OpenAPI 3.1 document', contentType: 'application/json' } },
  },
  {
    method: 'get',
    path: '/healthz',
    tag: 'Operations',
    summary: 'Liveness',
    security: 'none',
    responses: { 200: ok('The process is alive', healthSchema) },
  },
  {
    method: 'get',
    path: '/readyz',
    tag: 'Operations',
    summary: 'Readiness',
    description:
      'Database reachable, migrations current, and every component check (such as the vision models) passing.',
    security: 'none',
    responses: { 200: ok('Ready', readinessSchema), 503: ok('Not ready', readinessSchema) },
  },
  {
    method: 'get',
    path: '/metrics',
    tag: 'Operations',
    summary: 'Prometheus metrics',
    description:
      'Not public: requires `Authorization: Bearer <ATTESTLY_METRICS_TOKEN>` (an operator token, not an account session) and does not exist (404) while no token is configured.',
    security: 'none',
    responses: {
      200: { description: 'Prometheus text format', contentType: 'text/plain' },
      401: { description: 'Missing or wrong metrics token' },
      404: { description: 'No metrics token configured' },
    },
  },
];

import type * as v from 'valibot';
import { API_BASE_PATH } from '@attestly/contracts';
import {
  emailVerifiedSchema,
  healthSchema,
  loginResponseSchema,
  messageSchema,
  photoUploadSchema,
  readinessSchema,
  sessionListSchema,
  siteConfigSchema,
  userProfileSchema,
} from './schemas';

/** Who may call it; for routed endpoints this is read from the route itself (see mounted-routes.ts). */
export type Security = 'none' | 'user';

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
    security: 'none',
    responses: { 200: { description: 'Prometheus text format', contentType: 'text/plain' } },
  },
];

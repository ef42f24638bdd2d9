import type { Middleware } from 'koa';
import type * as v from 'valibot';

/**
 * Groups of the API reference, in the order it lists them. A route names one of these (a typo fails the typecheck).
 */
export const TAGS = [
  { name: 'Accounts', description: 'Sign-up, sign-in, session refresh and sign-out for end users.' },
  {
    name: 'Profile',
    description: "The signed-in user's own profile, photo, contact verification and data export.",
  },
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
  {
    name: 'Partners',
    description:
      'Partner accounts: registration, e-mail verification, sign-in, password reset, profile and token validation.',
  },
  {
    name: 'Sites',
    description:
      "A partner's sites; each one is an OpenID Connect client from the moment it is created. Includes the integration test.",
  },
  {
    name: 'Webhooks',
    description:
      "A partner's webhook endpoints: signed event deliveries, the test ping, the delivery log and redelivery.",
  },
  {
    name: 'API keys',
    description:
      'Keys for server-to-server calls (`X-API-Key`): `atk_test_` keys see the sandbox, `atk_live_` keys production. Managed from a partner session only.',
  },
  {
    name: 'Partner insights',
    description: "A partner's verification statistics and audit log (partner session or API key).",
  },
  {
    name: 'Billing',
    description: "Plans, the partner's usage, Stripe Checkout and the customer portal; Stripe's own webhook.",
  },
  {
    name: 'Verification',
    description:
      'Proving age, location and identity on this server: camera (photo or 5-second video), identity document, connection location, and the other methods this installation offers. Media is analysed on the box and deleted unless a reviewer must see it.',
  },
  {
    name: 'Wallet',
    description:
      "Wallet credentials: an age credential for the user's own wallet (OpenID4VCI offers), and wallet presentations on the sign-in screen (OpenID4VP). The protocol endpoints live under /oauth2 and /.well-known.",
  },
  {
    name: 'Admin authentication',
    description:
      'Back-office sign-in: password, then a TOTP code (or first-time TOTP setup with the `ats_` setup token).',
  },
  { name: 'Admin: partners', description: 'Back office: partner accounts, their sites and API keys.' },
  { name: 'Admin: users', description: 'Back office: user accounts, flags, locks and deletion.' },
  {
    name: 'Admin: verifications',
    description: 'Back office: the review queue, decisions, re-analysis and the kept media.',
  },
  {
    name: 'Admin: tokens',
    description: 'Back office: OAuth tokens and authorizations, and their revocation.',
  },
  { name: 'Admin: system', description: 'Back office: figures, health of the components and alerts.' },
  { name: 'Admin: audit', description: 'Back office: the hash-chained audit log.' },
  { name: 'Site', description: 'Public configuration and this API description.' },
  { name: 'Operations', description: 'Liveness, readiness and metrics for orchestrators and monitoring.' },
] as const;

export type Tag = (typeof TAGS)[number]['name'];

export interface RouteResponse {
  description: string;
  /** The answer's JSON body. Integration tests check every answer of the route against it (see modules/public/docs/conformance.ts). */
  schema?: v.GenericSchema;
  /** Defaults to application/json when a schema is given. */
  contentType?: string;
}

/** What a route says about itself where it is mounted: words, answers, and what `validate()` cannot show. */
export interface RouteDoc {
  tag: Tag;
  summary: string;
  description?: string;
  /**
   * A body the route reads without `validate()`: multipart fields, or JSON it checks itself. Params, queries and
   * JSON bodies given to `validate()` are read from the route and need not be repeated.
   */
  body?: v.GenericSchema;
  /** The body is multipart/form-data (file uploads): the document then also lists 413 and 415. */
  multipart?: boolean;
  /**
   * Rate-limited (429 with Retry-After) by a limit its service keeps. Routes that mount `rateLimit()` need not
   * say so: that middleware marks them itself.
   */
  limited?: boolean;
  /**
   * Answers by status. Error answers (4xx, 5xx) share one envelope; the document adds 401, 422, 413, 415 and 429
   * where the route's authentication, validation, upload or `limited` imply them.
   */
  responses: Record<number, RouteResponse>;
}

export type DescribedMiddleware = Middleware & { doc: RouteDoc };

/**
 * Describes the route it is mounted in, for the OpenAPI document and the response checks of the integration tests
 * (modules/public/docs: openapi.ts, conformance.ts). `routes()` (route.ts) puts it first in every route it
 * declares; a route mounted by hand puts it first itself:
 *
 *     router.get('/users/profile', describeRoute({ tag: 'Profile', summary: '…', responses: { 200: ok(…) } }), …)
 *
 * It does nothing at request time.
 */
export function describeRoute(doc: RouteDoc): DescribedMiddleware {
  const middleware: Middleware = (_ctx, next) => next();
  return Object.assign(middleware, { doc });
}

/** A documented answer. */
export const ok = (description: string, schema?: v.GenericSchema): RouteResponse => ({ description, schema });

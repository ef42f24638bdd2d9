import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Koa from 'koa';
import type { RouterContext } from '@koa/router';
import cors from '@koa/cors';
import { bodyParser } from '@koa/bodyparser';
import { API_BASE_PATH, LIMITS } from '@attestly/contracts';
import type { Deps } from './core/deps';
import { AppError } from './errors';
import { errorEnvelope } from './middleware/errors';
import { createMetrics } from './middleware/metrics';
import { requestContext } from './middleware/request-context';
import { securityHeaders } from './middleware/security-headers';
import { staticWeb } from './middleware/static-web';
import { apiKeyRoutes } from './modules/partners/api-keys/routes';
import { healthRoutes, type ReadinessCheck } from './modules/operators/health/routes';
import { adminRoutes } from './modules/backoffice/index';
import { adminAuthRoutes } from './modules/backoffice/accounts/routes';
import { docsRoutes } from './modules/public/docs/routes';
import { grantRoutes } from './modules/users/grants/routes';
import { newsletterRoutes } from './modules/public/newsletter/routes';
import { oauthInteractionRoutes } from './modules/users/oauth-interactions/routes';
import { createInteractions } from './oidc/interactions';
import { partnerIntegrationRoutes } from './modules/partners/integration/routes';
import { partnerStatsRoutes } from './modules/partners/stats/routes';
import { partnerAgeCheckRoutes } from './modules/partners/age-check/routes';
import { partnerRoutes } from './modules/partners/accounts/routes';
import { siteRoutes } from './modules/partners/sites/routes';
import { mediaRoutes, userRoutes } from './modules/users/accounts/routes';
import { verificationRoutes } from './modules/users/verification/routes';
import { locationRoutes } from './modules/users/verification/location-routes';
import { webhookRoutes } from './modules/partners/webhooks/routes';
import { billingRoutes, STRIPE_WEBHOOK_PATH } from './modules/partners/billing/routes';
import { findSdkDownloads, sdkDownloadRoutes } from './modules/partners/sdk-downloads/routes';
import { walletHttp } from './modules/users/wallet/http';
import { visionReadiness } from './modules/users/verification/vision';
import type { Oidc } from './oidc';
import { createServices, type AppServices } from './services';
import { createRouter } from './middleware/route';
import { underApi } from './lib/api-path';

export interface AppOptions {
  /** Extra readiness checks (e.g. the vision models) reported by /readyz. */
  readiness?: ReadinessCheck[];
  /** The on-box vision engine (server.ts creates it at start); /readyz then waits for its models. */
  vision?: Deps['vision'];
  /**
   * The OpenID Connect provider, mounted at /oauth2 with its interaction API under /api/v1/oauth. Created before
   * the app (`createOidc`, oidc/index.ts) because its signing keys come from the database.
   */
  oidc?: Oidc;
}

/** Where the built SPA is: configured, or apps/web/dist beside this package (source or bundle). */
function defaultWebDir(): string | null {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const candidate of [path.resolve(here, '../../web/dist'), path.resolve(here, '../web/dist')]) {
    if (existsSync(path.join(candidate, 'index.html'))) return candidate;
  }
  return null;
}

/**
 * The whole API surface, grouped by audience (STYLE.md): public, user; later partner, admin and OIDC mount here
 * too. Returns the Koa app and the services it built, so tests and the server entry share one composition.
 */
export function createApp(deps: Deps, options: AppOptions = {}): { app: Koa; services: AppServices } {
  if (options.vision !== undefined) deps = { ...deps, vision: options.vision };
  const services = createServices(deps);
  const { config, logger } = deps;
  const app = new Koa({ proxy: config.trustProxy });
  app.silent = true;
  // Signed cookies set while the provider runs inside this app use the provider's keys (derived from the master key).
  if (options.oidc) app.keys = options.oidc.cookieKeys;
  const metrics = createMetrics(deps.db);

  const api = createRouter({ prefix: API_BASE_PATH });
  // Public (no account).
  api.use(newsletterRoutes(services).routes());
  api.use(mediaRoutes(services).routes());
  api.use(docsRoutes(services).routes());
  // End users.
  api.use(userRoutes(services).routes());
  api.use(verificationRoutes(services).routes());
  api.use(locationRoutes(services).routes());
  api.use(grantRoutes(services).routes());
  if (options.oidc) {
    const interactions = createInteractions(options.oidc, services, services);
    api.use(oauthInteractionRoutes(services, interactions).routes());
  }
  const wallet = options.oidc ? walletHttp(options.oidc, services) : null;
  if (wallet) api.use(wallet.routes.routes());
  // Partners.
  api.use(partnerRoutes(services).routes());
  api.use(siteRoutes(services).routes());
  api.use(webhookRoutes(services).routes());
  api.use(billingRoutes(services).routes());
  api.use(apiKeyRoutes(services).routes());
  api.use(partnerStatsRoutes(services).routes());
  api.use(partnerAgeCheckRoutes(services).routes());
  api.use(partnerIntegrationRoutes(services).routes());
  // Administrators (spec 02): sign-in with TOTP, then the back-office API.
  api.use(adminAuthRoutes(services).routes());
  api.use(adminRoutes(services.admin, services.requireAdmin).routes());
  api.all('/{*rest}', () => {
    throw new AppError(404, 'not_found', 'No such API endpoint');
  });

  app.use(requestContext(logger));
  app.use(metrics.middleware);
  app.use(services.admin.system.requestCounter);
  app.use(
    securityHeaders({
      https: config.publicUrl.startsWith('https:'),
      stripeJsUrl: config.cardCheck?.stripeJsUrl ?? null,
    }),
  );
  app.use(errorEnvelope());
  if (config.corsOrigins.length > 0) {
    const allowed = new Set(config.corsOrigins);
    // Closed unless configured: only listed origins get CORS headers, never with a wildcard.
    app.use(
      cors({
        origin: (ctx) => (allowed.has(ctx.get('Origin')) ? ctx.get('Origin') : ''),
        credentials: false,
        maxAge: 600,
      }),
    );
  }
  const parseJson = bodyParser({
    enableTypes: ['json'],
    parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
    jsonLimit: LIMITS.jsonBodyBytes,
    encoding: 'utf-8',
    onError: (error: Error & { status?: number }) => {
      if (error.status === 413) throw new AppError(413, 'request.too_large', 'Request body is too large');
      throw new AppError(400, 'request.malformed_json', 'Request body is not valid JSON');
    },
  });
  // OpenID Connect at /oauth2, ahead of any body parser: the provider reads its own bodies.
  if (wallet) app.use(wallet.gateway);
  if (options.oidc) app.use(options.oidc.middleware);
  // Body parsing only under /api: the OIDC provider reads its own bodies.
  // Stripe's webhook is read raw: its signature covers the exact bytes (modules/partners/billing/routes.ts).
  app.use(async (ctx, next) =>
    underApi(ctx.path) && ctx.path !== STRIPE_WEBHOOK_PATH ? parseJson(ctx, next) : next(),
  );
  app.use(async (ctx, next) => {
    // Any non-empty body under /api (DELETE /users/account has one; a chunked one has no Content-Length) must be
    // JSON or multipart. An empty body (Content-Length: 0, as fetch sends for a bare POST) is no body.
    const length = ctx.request.length;
    const hasBody = length === undefined ? Boolean(ctx.get('Transfer-Encoding')) : length > 0;
    if (underApi(ctx.path) && hasBody && !ctx.is('application/json', 'multipart/form-data')) {
      throw new AppError(
        415,
        'request.unsupported_media_type',
        'Send JSON (application/json) or multipart/form-data',
      );
    }
    await next();
  });
  // The router tries each API route's pattern in turn (about 20 µs a request): requests outside the API (health
  // checks, metrics, the web app's files) skip it. The gate carries `.router` as the router's own middleware does:
  // the API reference reads the mounted routes from it.
  const apiRoutes = api.routes();
  const apiMethods = api.allowedMethods();
  const apiGate: Koa.Middleware<object, RouterContext> = (ctx, next) =>
    ctx.path.startsWith(API_BASE_PATH) ? apiRoutes(ctx, () => apiMethods(ctx, next)) : next();
  app.use(Object.assign(apiGate, { router: api }));
  const readiness = [...(options.readiness ?? []), ...(deps.vision ? [visionReadiness(deps.vision)] : [])];
  const health = healthRoutes(services, metrics.registry, readiness);
  app.use(health.routes());
  app.use(sdkDownloadRoutes({ publicUrl: config.publicUrl, downloads: findSdkDownloads() }).routes());
  const webDir = config.webDir ?? defaultWebDir();
  if (webDir) app.use(staticWeb(webDir));
  else logger.warn('web build not found: run `npm run build` to serve the UI');

  return { app, services };
}

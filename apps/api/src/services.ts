import type { Middleware } from 'koa';
import type { Deps } from './core/deps';
import { requireSession } from './middleware/auth';
import { createAdminApi } from './modules/backoffice/index';
import { createAdminService } from './modules/backoffice/accounts/service';
import { requirePartnerCaller, type PartnerPrincipal } from './modules/partners/api-keys/middleware';
import { planRateLimit } from './modules/partners/billing/plan-rate-limit';
import { createApiKeyService } from './modules/partners/api-keys/service';
import { createAuditService } from './modules/shared/audit/service';
import { createPartnerStatsService } from './modules/partners/stats/service';
import { createGrantService } from './modules/users/grants/service';
import { createNewsletterService } from './modules/public/newsletter/service';
import { createPartnerService } from './modules/partners/accounts/service';
import { createRateLimiter } from './modules/shared/rate-limit/service';
import { createSessionService } from './modules/shared/sessions/service';
import { createSiteService } from './modules/partners/sites/service';
import { createOneTimeTokens } from './modules/users/accounts/one-time-tokens';
import { createUserService } from './modules/users/accounts/service';
import { createVerificationModule } from './modules/users/verification/index';
import { createWebhookService } from './modules/partners/webhooks/service';
import { createBillingService } from './modules/partners/billing/service';

/** Builds every service once per app from the shared deps. */
export function createServices(deps: Deps) {
  const sessions = createSessionService(deps);
  const audit = createAuditService(deps);
  const limiter = createRateLimiter(deps);
  const webhooks = createWebhookService(deps, { audit });
  const billing = createBillingService(deps, { audit });
  const tokens = createOneTimeTokens(deps);
  const users = createUserService(deps, { sessions, audit, limiter, tokens });
  const newsletter = createNewsletterService(deps, { audit, limiter });
  const partnerStats = createPartnerStatsService(deps);
  const verifications = createVerificationModule(deps, { audit, attribution: partnerStats.attributionFor });
  const requireUser: Middleware = requireSession(sessions, ['user']);
  const grants = createGrantService(deps, { audit });
  const partners = createPartnerService(deps, { sessions, audit, limiter });
  const sites = createSiteService(deps, { audit, grants });
  const requirePartner: Middleware = requireSession(sessions, ['partner']);
  const apiKeys = createApiKeyService(deps, { audit });
  // A partner session whose partner is not suspended; the second also takes an X-API-Key (server-to-server calls).
  const requireActivePartner = requirePartnerCaller(deps, apiKeys, sessions, { acceptApiKey: false });
  const partnerCaller = requirePartnerCaller(deps, apiKeys, sessions, {
    acceptApiKey: true,
    onApiCall: partnerStats.recordResponse,
  });
  // Server-to-server calls (X-API-Key) also count against the partner's plan's per-minute API limit (spec 01 §9).
  const planLimit = planRateLimit(
    deps,
    limiter,
    (ctx) => {
      const caller = ctx.state.partner as PartnerPrincipal | undefined;
      return caller?.via === 'api_key' ? caller.partnerId : null;
    },
    audit,
  );
  // Keeps partnerCaller's markers (session kinds, API key) for the OpenAPI document (modules/public/docs).
  const requirePartnerOrApiKey: Middleware = Object.assign(
    ((ctx, next) => partnerCaller(ctx, () => planLimit(ctx, next))) satisfies Middleware,
    { sessionKinds: ['partner'] as const, apiKey: true },
  );
  // Administrators (spec 02): a full admin session; the setup token opens only the two 2FA setup calls.
  const admins = createAdminService(deps, { sessions, audit });
  const requireAdmin: Middleware = requireSession(sessions, ['admin']);
  const requireAdminSetup: Middleware = requireSession(sessions, ['admin_setup']);
  const admin = createAdminApi(deps, {
    sessions,
    audit,
    users,
    verifications,
    grants,
    sites,
    apiKeys,
    partnerStats,
  });
  return {
    ...deps,
    sessions,
    audit,
    limiter,
    webhooks,
    billing,
    tokens,
    users,
    newsletter,
    verifications,
    requireUser,
    grants,
    partners,
    sites,
    requirePartner,
    apiKeys,
    partnerStats,
    requireActivePartner,
    requirePartnerOrApiKey,
    admins,
    requireAdmin,
    requireAdminSetup,
    admin,
  };
}
export type AppServices = ReturnType<typeof createServices>;

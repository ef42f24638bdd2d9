import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Deps } from '../../core/deps';
import type { ApiKeyService } from '../partners/api-keys/service';
import type { AuditService } from '../shared/audit/service';
import type { GrantService } from '../users/grants/service';
import type { PartnerStatsService } from '../partners/stats/service';
import type { SessionService } from '../shared/sessions/service';
import type { SiteService } from '../partners/sites/service';
import type { VerificationModule } from '../users/verification/index';
import { createAdminAuditService } from './audit/service';
import { mountAuditRoutes } from './audit/routes';
import { createAdminPartnerService } from './partners/service';
import { mountPartnerRoutes } from './partners/routes';
import { createAdminSystemService } from './system/service';
import { mountSystemRoutes } from './system/routes';
import { createAdminTokenService } from './tokens/service';
import { mountTokenRoutes } from './tokens/routes';
import { createAdminUserService } from './users/service';
import { mountUserRoutes } from './users/routes';
import { createAdminVerificationService } from './verifications/service';
import { mountVerificationRoutes } from './verifications/routes';
import { createRouter } from '../../middleware/route';

interface AdminApiServices {
  sessions: SessionService;
  audit: AuditService;
  users: object;
  verifications: VerificationModule;
  grants: GrantService;
  sites: SiteService;
  apiKeys: ApiKeyService;
  partnerStats: PartnerStatsService;
}

/** The back office's services, one per area of spec 02 §7. */
export function createAdminApi(deps: Deps, services: AdminApiServices) {
  return {
    partners: createAdminPartnerService(deps, services),
    users: createAdminUserService(deps, services),
    verifications: createAdminVerificationService(deps, services),
    tokens: createAdminTokenService(deps, services),
    system: createAdminSystemService(deps, services),
    audit: createAdminAuditService(deps),
  };
}
export type AdminApi = ReturnType<typeof createAdminApi>;

/**
 * `/api/v1/admin/*` (spec 02 §7): every call needs a full admin session (`ata_`); a setup token, a user's or a
 * partner's token is refused with 401 before any handler runs.
 */
export function adminRoutes(admin: AdminApi, requireAdmin: Middleware): Router {
  const router = createRouter({ prefix: '/admin' });
  router.use(requireAdmin);
  // Admin answers name people and carry one-time secrets: never stored by a cache.
  router.use(async (ctx, next) => {
    await next();
    if (!ctx.response.get('Cache-Control')) ctx.set('Cache-Control', 'no-store');
  });
  mountPartnerRoutes(router, admin.partners);
  mountUserRoutes(router, admin.users, admin.verifications);
  mountVerificationRoutes(router, admin.verifications);
  mountTokenRoutes(router, admin.tokens);
  mountSystemRoutes(router, admin.system);
  mountAuditRoutes(router, admin.audit);
  return router;
}

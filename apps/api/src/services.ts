import type { Middleware } from 'koa';
import type { Deps } from './deps';
import { requireSession } from './middleware/auth';
import { createAuditService } from './modules/audit/service';
import { createNewsletterService } from './modules/newsletter/service';
import { createRateLimiter } from './modules/rate-limit/service';
import { createSessionService } from './modules/sessions/service';
import { createOneTimeTokens } from './modules/users/one-time-tokens';
import { createUserService } from './modules/users/service';

/** Builds every service once per app from the shared deps. */
export function createServices(deps: Deps) {
  const sessions = createSessionService(deps);
  const audit = createAuditService(deps);
  const limiter = createRateLimiter(deps);
  const tokens = createOneTimeTokens(deps);
  const users = createUserService(deps, { sessions, audit, limiter, tokens });
  const newsletter = createNewsletterService(deps, { audit, limiter });
  const requireUser: Middleware = requireSession(sessions, ['user']);
  return { ...deps, sessions, audit, limiter, tokens, users, newsletter, requireUser };
}
export type AppServices = ReturnType<typeof createServices>;

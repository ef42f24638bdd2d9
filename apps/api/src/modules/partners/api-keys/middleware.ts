import type { Context, Middleware } from 'koa';
import { API_KEY_HEADER, type ApiKeyEnvironment } from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import { AppError } from '../../../errors';
import { bearerToken } from '../../../middleware/auth';
import type { SessionService } from '../../shared/sessions/service';
import type { ApiKeyService } from './service';

/** Who a partner call speaks for: a signed-in partner (portal) or a partner server with an API key. */
export interface PartnerPrincipal {
  partnerId: string;
  via: 'session' | 'api_key';
  /** The key's environment; null for portal sessions (which see live data, sandbox marked). */
  environment: ApiKeyEnvironment | null;
  keyId: string | null;
}

export const partnerPrincipal = (ctx: Context) => ctx.state.partner as PartnerPrincipal;

/**
 * Whether the call is made with a sandbox API key (`atk_test_…`), which sees only its partner's sandbox sites:
 * their tokens, statistics and audit entries (issue 21 item 7). Portal sessions and live keys see everything.
 */
export const sandboxOnly = (ctx: Context) =>
  (ctx.state.partner as PartnerPrincipal | undefined)?.environment === 'sandbox';

const INVALID_KEY = 'Invalid or revoked API key';
const SUSPENDED = 'This partner account has been suspended. Please contact support.';

/**
 * Authenticates partner calls: a partner bearer session (the portal) and, with `acceptApiKey`, also `X-API-Key`
 * (server to server, DESIGN.md §3). Either way the partner must not be suspended. Puts a PartnerPrincipal on
 * `ctx.state.partner` (and a session's record on `ctx.state.session`, as requireSession does).
 */
export function requirePartnerCaller(
  { db }: Pick<Deps, 'db'>,
  apiKeys: ApiKeyService,
  sessions: SessionService,
  {
    acceptApiKey,
    onApiCall,
  }: {
    acceptApiKey: boolean;
    /** Told each API-key call's server time (the dashboard's measured response time). */
    onApiCall?: (partnerId: string, ms: number) => Promise<void>;
  },
): Middleware {
  const { Partner } = db.models;
  const middleware: Middleware = async (ctx, next) => {
    const rawKey = ctx.get(API_KEY_HEADER);
    if (rawKey && !acceptApiKey) {
      throw new AppError(401, 'auth.api_key_not_accepted', 'Sign in to the partner portal to do this');
    }
    if (rawKey) {
      const principal = await apiKeys.authenticate(rawKey.trim(), {
        ip: ctx.ip,
        userAgent: ctx.get('User-Agent') || null,
        endpoint: `${ctx.method} ${ctx.path}`,
      });
      if (!principal) throw new AppError(401, 'auth.invalid_api_key', INVALID_KEY);
      ctx.state.partner = { ...principal, via: 'api_key' } satisfies PartnerPrincipal;
      const started = process.hrtime.bigint();
      try {
        await next();
      } finally {
        if (onApiCall) {
          void onApiCall(principal.partnerId, Number(process.hrtime.bigint() - started) / 1e6);
        }
      }
      return;
    }
    const token = bearerToken(ctx.get('Authorization'));
    if (!token) throw new AppError(401, 'auth.missing_token', 'Authentication required');
    const session = await sessions.authenticate(token, ['partner']);
    if (!session)
      throw new AppError(401, 'auth.invalid_token', 'Your session has expired. Please sign in again.');
    const partner = await Partner.findByPk(session.subject_id, { attributes: ['id', 'status'] });
    if (!partner)
      throw new AppError(401, 'auth.invalid_token', 'Your session has expired. Please sign in again.');
    if (partner.status === 'suspended') throw new AppError(403, 'auth.account_disabled', SUSPENDED);
    ctx.state.session = session;
    ctx.state.partner = {
      partnerId: partner.id,
      via: 'session',
      environment: null,
      keyId: null,
    } satisfies PartnerPrincipal;
    return next();
  };
  // Lets the OpenAPI document (modules/public/docs) mark the routes that take a bearer token or an API key.
  return Object.assign(middleware, { sessionKinds: ['partner'] as const, apiKey: acceptApiKey });
}

import { createHash, timingSafeEqual } from 'node:crypto';
import type Router from '@koa/router';
import type { Registry } from 'prom-client';
import { healthSchema, readinessSchema } from '@attestly/contracts';
import { pendingMigrations } from '../../../db/migrator';
import { AppError } from '../../../errors';
import type { Deps } from '../../../core/deps';
import { ok } from '../../../middleware/describe';
import { createRouter, routes } from '../../../middleware/route';

export interface ReadinessCheck {
  name: string;
  check(): Promise<{ ok: boolean; [detail: string]: unknown }>;
}

/** What these routes take from the app (services.ts builds it and passes it in). */
export type HealthRoutesServices = Pick<Deps, 'db' | 'logger' | 'config'>;

/**
 * `/healthz`: the process is alive. `/readyz`: it can serve (database reachable, migrations current, and any
 * component checks such as the vision models). `/metrics`: Prometheus text format, behind a bearer token.
 */
export function healthRoutes(
  services: HealthRoutesServices,
  registry: Registry,
  checks: ReadinessCheck[],
): Router {
  const router = createRouter();
  const route = routes(router, { tag: 'Operations' });
  route.get('/healthz', {
    summary: 'Liveness',
    responses: { 200: ok('The process is alive', healthSchema) },
    handler: () => ({ status: 'ok' }),
  });
  route.get('/readyz', {
    summary: 'Readiness',
    description:
      'Database reachable, migrations current, and every component check (such as the vision models) passing.',
    responses: { 200: ok('Ready', readinessSchema), 503: ok('Not ready', readinessSchema) },
    handler: async ({ ctx }) => {
      const components: Record<string, unknown> = {};
      let ready = true;
      try {
        await services.db.sequelize.query('SELECT 1');
        const pending = await pendingMigrations(services.db);
        components.database = { ok: true, dialect: services.db.dialect };
        components.migrations = { ok: pending.length === 0, pending };
        ready &&= pending.length === 0;
      } catch (error) {
        services.logger.error({ err: error }, 'readiness: database check failed');
        components.database = { ok: false, dialect: services.db.dialect, error: 'database unreachable' };
        ready = false;
      }
      for (const { name, check } of checks) {
        try {
          const result = await check();
          components[name] = result;
          ready &&= result.ok;
        } catch (error) {
          services.logger.error({ err: error, component: name }, 'readiness check failed');
          components[name] = { ok: false, error: 'check failed' };
          ready = false;
        }
      }
      ctx.status = ready ? 200 : 503;
      return { status: ready ? 'ready' : 'not_ready', checks: components };
    },
  });
  // Not public (it shows routes, error rates and process figures): only with ATTESTLY_METRICS_TOKEN as a bearer
  // token, compared in constant time; without a configured token it does not exist. The 401 says how to present it.
  const metricsToken = services.config.metricsToken
    ? createHash('sha256').update(services.config.metricsToken).digest()
    : null;
  route.get('/metrics', {
    summary: 'Prometheus metrics',
    description:
      'Not public: requires `Authorization: Bearer <ATTESTLY_METRICS_TOKEN>` (an operator token, not an account session) and does not exist (404) while no token is configured.',
    responses: {
      200: { description: 'Prometheus text format', contentType: 'text/plain' },
      401: ok('Missing or wrong metrics token'),
      404: ok('No metrics token configured'),
    },
    handler: async ({ ctx }) => {
      if (!metricsToken) throw new AppError(404, 'not_found', 'Not found');
      const presented = /^Bearer (\S+)$/i.exec(ctx.get('Authorization'))?.[1] ?? '';
      if (!timingSafeEqual(createHash('sha256').update(presented).digest(), metricsToken)) {
        ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
        throw new AppError(401, 'auth.unauthenticated', 'The metrics endpoint needs its bearer token');
      }
      ctx.type = registry.contentType;
      return registry.metrics();
    },
  });
  return router;
}

import Router from '@koa/router';
import type { Registry } from 'prom-client';
import { pendingMigrations } from '../../db/migrator';
import type { AppServices } from '../../services';

export interface ReadinessCheck {
  name: string;
  check(): Promise<{ ok: boolean; [detail: string]: unknown }>;
}

/**
 * `/healthz`: the process is alive. `/readyz`: it can serve (database reachable, migrations current, and any
 * component checks such as the vision models). `/metrics`: Prometheus text format.
 */
export function healthRoutes(services: AppServices, registry: Registry, checks: ReadinessCheck[]): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
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
    ctx.body = { status: ready ? 'ready' : 'not_ready', checks: components };
  });
  router.get('/metrics', async (ctx) => {
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });
  return router;
}

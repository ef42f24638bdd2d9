import type { Middleware } from 'koa';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database } from '../db/database';
import { underApi } from '../lib/api-path';

/** Prometheus metrics in a registry of this app's own, so several apps in one process do not collide. */
export function createMetrics(db: Database) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'attestly_http_requests_total',
    help: 'HTTP requests by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'attestly_http_request_duration_seconds',
    help: 'HTTP request latency by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const pool = new Gauge({
    name: 'attestly_db_pool_connections',
    help: 'Database pool connections by state',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const stats = db.poolStats();
      this.set({ state: 'size' }, stats.size);
      this.set({ state: 'available' }, stats.available);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
  void pool;
  let countedRoundTrips = 0;
  const roundTrips = new Counter({
    name: 'attestly_db_round_trips_total',
    help: 'Round trips to the database (PostgreSQL: messages sent and answered; SQLite: calls into it)',
    registers: [registry],
    collect() {
      const now = db.roundTrips();
      if (now > countedRoundTrips) this.inc(now - countedRoundTrips);
      countedRoundTrips = now;
    },
  });
  void roundTrips;

  /**
   * The counter and histogram children of each label combination, looked up by one string key: prom-client
   * otherwise validates and hashes the label object on every observation. Bounded like the label values
   * themselves (route templates, methods, statuses).
   */
  const children = new Map<string, { count: { inc(): void }; observe(seconds: number): void }>();
  const childrenFor = (method: string, route: string, status: string) => {
    const key = `${method} ${status} ${route}`;
    let child = children.get(key);
    if (!child) {
      const labels = { method, route, status };
      const count = requests.labels(labels);
      const histogram = latency.labels(labels);
      child = { count, observe: (seconds) => histogram.observe(seconds) };
      children.set(key, child);
    }
    return child;
  };

  /** Labels by route template (`/api/v1/users/sessions/:id`), never the raw path, to keep cardinality bounded. */
  const middleware: Middleware = async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const matched = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
      const route = matched ? String(matched) : underApi(ctx.path) ? 'unmatched' : 'other';
      ctx.state.routeTemplate = route;
      const child = childrenFor(ctx.method, route, String(ctx.status));
      child.count.inc();
      child.observe((performance.now() - started) / 1000);
    }
  };
  return { registry, middleware };
}

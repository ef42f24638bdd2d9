import type Koa from 'koa';
import type * as v from 'valibot';
import type { RouteDoc } from '../../../middleware/describe';

/**
 * What `describeRoute()`, `validate()`, `requireSession()`, `requirePartnerCaller()` and `rateLimit()` leave on
 * their middleware.
 */
interface MarkedMiddleware {
  doc?: RouteDoc;
  schemas?: { params?: v.GenericSchema; query?: v.GenericSchema; body?: v.GenericSchema };
  sessionKinds?: readonly string[];
  apiKey?: boolean;
  rateLimited?: boolean;
}

export interface MountedRoute {
  method: string;
  /** Router syntax, with the prefix: `/api/v1/users/sessions/:id`. */
  path: string;
  /** The route's own description (describeRoute); null when nobody wrote one. */
  doc: RouteDoc | null;
  schemas: NonNullable<MarkedMiddleware['schemas']>;
  /** Account kinds whose bearer token the route accepts; null when it needs none. */
  sessionKinds: readonly string[] | null;
  /** The route also accepts a partner API key (X-API-Key). */
  apiKey: boolean;
  /** It can answer 429: it mounts `rateLimit()`, or its description says it is limited (a limit its service keeps). */
  limited: boolean;
}

interface RouterLayer {
  path: string;
  methods: string[];
  stack: MarkedMiddleware[];
  match(path: string): boolean;
}

/**
 * Every (method, path) the app routes, read from the routers mounted on it (@koa/router marks its dispatch
 * middleware with `.router`), with what the route's middleware say about it: its description, validation schemas
 * and authentication. Middleware a router `use()`s ahead of a route (the admin API's session check) counts for it.
 */
export function mountedRoutes(app: Koa): MountedRoute[] {
  const routes: MountedRoute[] = [];
  for (const middleware of app.middleware as Array<{ router?: { stack: RouterLayer[] } }>) {
    const stack = middleware.router?.stack ?? [];
    stack.forEach((layer, index) => {
      // Router-level middleware, and the /api/v1 catch-all that answers 404 for unknown endpoints.
      if (layer.methods.length === 0 || layer.path.includes('{*')) return;
      const ahead = stack
        .slice(0, index)
        .filter((other) => other.methods.length === 0 && other.match(layer.path));
      const marked = [...ahead, layer].flatMap((item) => item.stack);
      const schemas = Object.assign({}, ...marked.map((fn) => fn.schemas ?? {})) as MountedRoute['schemas'];
      const auth = marked.find((fn) => fn.sessionKinds);
      const doc = marked.find((fn) => fn.doc)?.doc ?? null;
      for (const method of layer.methods) {
        if (method === 'HEAD') continue;
        routes.push({
          method: method.toLowerCase(),
          path: layer.path,
          doc,
          schemas,
          sessionKinds: auth?.sessionKinds ?? null,
          apiKey: auth?.apiKey === true,
          limited: doc?.limited === true || marked.some((fn) => fn.rateLimited === true),
        });
      }
    });
  }
  return routes;
}

/**
 * `GET /api/v1/…` for each mounted route without a description: no describeRoute(), an empty summary, or no
 * successful answer among its responses (a test keeps this list empty).
 */
export function undescribedRoutes(app: Koa): string[] {
  return mountedRoutes(app)
    .filter(
      (route) =>
        !route.doc?.summary.trim() ||
        !Object.keys(route.doc.responses).some((status) => Number(status) < 400),
    )
    .map((route) => `${route.method.toUpperCase()} ${route.path}`);
}

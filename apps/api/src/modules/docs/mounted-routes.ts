import type Koa from 'koa';
import type * as v from 'valibot';

/** What `validate()` and `requireSession()` leave on their middleware for this module to read. */
interface DescribedMiddleware {
  schemas?: { params?: v.GenericSchema; query?: v.GenericSchema; body?: v.GenericSchema };
  sessionKinds?: readonly string[];
}

export interface MountedRoute {
  method: string;
  /** Router syntax, with the prefix: `/api/v1/users/sessions/:id`. */
  path: string;
  schemas: NonNullable<DescribedMiddleware['schemas']>;
  /** Account kinds whose bearer token the route accepts; null when it needs none. */
  sessionKinds: readonly string[] | null;
}

interface RouterLayer {
  path: string;
  methods: string[];
  stack: DescribedMiddleware[];
}

/**
 * Every (method, path) the app routes, read from the routers mounted on it (@koa/router marks its dispatch
 * middleware with `.router`), with the validation schemas and session requirement found in each route's stack.
 */
export function mountedRoutes(app: Koa): MountedRoute[] {
  const routes: MountedRoute[] = [];
  for (const middleware of app.middleware as Array<{ router?: { stack: RouterLayer[] } }>) {
    for (const layer of middleware.router?.stack ?? []) {
      // The /api/v1 catch-all that answers 404 for unknown endpoints.
      if (layer.path.includes('{*')) continue;
      const schemas = Object.assign(
        {},
        ...layer.stack.map((fn) => fn.schemas ?? {}),
      ) as MountedRoute['schemas'];
      const sessionKinds = layer.stack.find((fn) => fn.sessionKinds)?.sessionKinds ?? null;
      for (const method of layer.methods) {
        if (method !== 'HEAD')
          routes.push({ method: method.toLowerCase(), path: layer.path, schemas, sessionKinds });
      }
    }
  }
  return routes;
}

import Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { Middleware } from 'koa';
import type * as v from 'valibot';
import { origin } from '../lib/request-origin';
import { describeRoute, ok, type RouteDoc, type Tag } from './describe';
import { validate } from './validate';

type Schema = v.GenericSchema;

/** What `validate()` checks before the handler runs; each part the handler then receives typed. */
export interface RouteInput {
  params?: Schema;
  query?: Schema;
  body?: Schema;
}

type Parsed<I, K extends keyof RouteInput> =
  I extends Record<K, infer S extends Schema> ? v.InferOutput<S> : undefined;

/** What a handler is given: the validated input, and the context for what a returned body cannot say. */
export interface RouteRequest<I> {
  params: Parsed<I, 'params'>;
  query: Parsed<I, 'query'>;
  body: Parsed<I, 'body'>;
  ctx: RouterContext;
}

/** One route: its description for the OpenAPI document, what guards and validates it, and what it does. */
export interface RouteSpec<I extends RouteInput> extends Omit<RouteDoc, 'tag' | 'body'> {
  /** Defaults to the tag given to `routes()`. */
  tag?: Tag;
  /** Middleware that runs before validation, after the ones given to `routes()`: session checks, rate limits. */
  guards?: Middleware[];
  input?: I;
  /** A body the handler reads itself (multipart fields): documented, not validated (`RouteDoc.body`). */
  documentedBody?: Schema;
  /** The status of a successful answer; left to Koa when absent (200 with a body). */
  status?: number;
  /**
   * Set before the handler runs, so that an error answer carries them too: `Cache-Control: no-store` on an answer
   * with a secret in it must hold whatever the outcome.
   */
  headers?: Readonly<Record<string, string>>;
  /** Returns the answer's body; a handler that sets the body itself (a file, a redirect) returns nothing. */
  handler(request: RouteRequest<I>): unknown;
}

/**
 * A router of this server: its paths match in their own case only. @koa/router ignores case unless told, which gave
 * every API route aliases (`/API/V1/USERS/PROFILE`) that rules keyed on the path did not recognise — an operator's
 * proxy rule for `/api/v1/admin`, and this server's own `/api/` checks (JSON bodies, `Cache-Control: no-store`).
 */
export function createRouter(options: { prefix?: string } = {}): Router {
  return new Router({ ...options, sensitive: true });
}

/** `headers` of an answer that carries a secret shown once (a password, a key): no cache may keep it. */
export const NO_STORE: Readonly<Record<string, string>> = { 'Cache-Control': 'no-store' };

type Declare = <I extends RouteInput = Record<never, never>>(
  path: string | string[],
  spec: RouteSpec<I>,
) => void;

/**
 * The one way a route is declared (issue 26 item 2): `routes(router, { tag }).post('/path', { summary, responses,
 * input, handler })` mounts `describeRoute()`, the guards, `validate()` and the handler, in that order, so the
 * OpenAPI document reads the route's words and schemas from where it is mounted, as before, and the handler gets
 * typed input instead of reading `ctx.state.input`.
 */
export function routes(
  router: Router,
  defaults: { tag: Tag; guards?: Middleware[] },
): Record<'get' | 'post' | 'put' | 'patch' | 'delete', Declare> {
  const declare =
    (method: 'get' | 'post' | 'put' | 'patch' | 'delete'): Declare =>
    (path, spec) => {
      const { tag, guards, input, documentedBody, status, headers, handler, ...words } = spec;
      const doc: RouteDoc = { tag: tag ?? defaults.tag, ...words };
      if (documentedBody) doc.body = documentedBody;
      const run: Middleware = async (ctx) => {
        for (const [name, value] of Object.entries(headers ?? {})) ctx.set(name, value);
        const parsed = (ctx.state.input ?? {}) as Record<keyof RouteInput, never>;
        const body = await handler({
          params: parsed.params,
          query: parsed.query,
          body: parsed.body,
          ctx: ctx as RouterContext,
        });
        if (status !== undefined) ctx.status = status;
        if (body !== undefined) ctx.body = body;
      };
      const stack: Middleware[] = [
        describeRoute(doc),
        ...(defaults.guards ?? []),
        ...(guards ?? []),
        ...(input ? [validate(input)] : []),
        run,
      ];
      router[method](path, ...stack);
    };
  return {
    get: declare('get'),
    post: declare('post'),
    put: declare('put'),
    patch: declare('patch'),
    delete: declare('delete'),
  };
}

/**
 * The handler of a route that answers a fixed confirmation (`{ message }`, the words the screens show) once its work
 * is done; a failure answers with its own error instead.
 */
export function confirms<R>(
  message: string,
  work: (request: R) => Promise<unknown>,
): (request: R) => Promise<{ message: string }> {
  return async (request) => {
    await work(request);
    return { message };
  };
}

type IdParams = v.GenericSchema<unknown, { id: string }>;

/**
 * The input and handler of a DELETE of one of the caller's own records (`/…/:id`, answered 204 with no body): the
 * service is given the owner the session names (`owner`), the record's id and where the request came from, for its
 * audit entry. A record of someone else is the service's 404.
 */
export function removesOwn<P extends IdParams>(
  params: P,
  owner: (ctx: RouterContext) => string,
  remove: (ownerId: string, id: string, from: ReturnType<typeof origin>) => Promise<unknown>,
) {
  return {
    input: { params },
    status: 204,
    handler: async (request: RouteRequest<{ params: P }>) => {
      await remove(owner(request.ctx), request.params.id, origin(request.ctx));
    },
  };
}

/**
 * The sign-out route of an account kind (users, partners, administrators): behind that kind's session guard, it
 * ends the session it was called with and answers 204.
 */
export function signOut<S>(
  guard: Middleware,
  logout: (session: S, from: ReturnType<typeof origin>) => Promise<unknown>,
): RouteSpec<Record<never, never>> {
  return {
    summary: 'Sign out',
    responses: { 204: ok('Session ended') },
    guards: [guard],
    status: 204,
    handler: async ({ ctx }) => {
      await logout(ctx.state.session as S, origin(ctx));
    },
  };
}

import type Koa from 'koa';
import type { Middleware } from 'koa';
import * as v from 'valibot';
import { errorEnvelopeSchema } from '@attestly/contracts';
import { mountedRoutes, type MountedRoute } from './mounted-routes';

/** One answer that is not what its route declares. */
export interface Mismatch {
  /** `POST /api/v1/users/login`, as the client sent it. */
  request: string;
  /** The route as mounted: `POST /api/v1/users/sessions/:id`. */
  route: string;
  status: number;
  problems: string[];
}

const isJsonBody = (body: unknown): body is object =>
  typeof body === 'object' &&
  body !== null &&
  !Buffer.isBuffer(body) &&
  typeof (body as { pipe?: unknown }).pipe !== 'function';

/** Object keys the answer has and its schema does not name (valibot's `object` drops them from its output). */
function undeclaredKeys(sent: unknown, parsed: unknown, path: string, out: string[]): void {
  if (Array.isArray(sent) && Array.isArray(parsed)) {
    sent.forEach((item, index) => undeclaredKeys(item, parsed[index], `${path}[${index}]`, out));
  } else if (isJsonBody(sent) && isJsonBody(parsed)) {
    for (const [key, value] of Object.entries(sent)) {
      const at = path ? `${path}.${key}` : key;
      if (!(key in parsed)) out.push(`${at}: not in the declared schema`);
      else undeclaredKeys(value, (parsed as Record<string, unknown>)[key], at, out);
    }
  }
}

/** What is wrong with `body` as the answer of `route` with `status`; empty when it conforms. */
export function checkAnswer(route: MountedRoute, status: number, body: unknown): string[] {
  const declared = route.doc?.responses[status];
  if (!declared && status < 400) return [`status ${status} is not among the documented answers`];
  const contentType = declared?.contentType ?? 'application/json';
  if (!/json/.test(contentType)) return [];
  // Every error shares the one envelope unless the route declares something else for that status.
  const schema = declared?.schema ?? (status >= 400 ? errorEnvelopeSchema : undefined);
  if (!isJsonBody(body)) {
    return schema && status !== 304 ? ['a JSON body is documented, but none was sent'] : [];
  }
  if (!schema) return declared?.contentType ? [] : ['a JSON body was sent, but none is documented'];
  // Checked as the client receives it: dates as strings, undefined members gone.
  const sent = JSON.parse(JSON.stringify(body)) as unknown;
  const result = v.safeParse(schema, sent);
  if (!result.success) {
    return result.issues.map((issue) => `${v.getDotPath(issue) ?? '(body)'}: ${issue.message}`);
  }
  const problems: string[] = [];
  undeclaredKeys(sent, result.output, '', problems);
  return problems;
}

/**
 * A test-only middleware, put in front of the whole app, that checks every answer of a described route against the
 * schema the route declares for that status (describeRoute) and collects what does not match. createTestApp
 * (test/helpers.ts) installs it and fails the test file when anything was collected.
 */
export function responseConformance(app: Koa): {
  middleware: Middleware;
  mismatches: Mismatch[];
  /** How many answers were checked (a test can tell that the check ran). */
  checked: { count: number };
} {
  const mismatches: Mismatch[] = [];
  const checked = { count: 0 };
  let routes: Map<string, MountedRoute> | null = null;
  const middleware: Middleware = async (ctx, next) => {
    await next();
    const path = (ctx as { _matchedRoute?: unknown })._matchedRoute;
    if (typeof path !== 'string' || ctx.method === 'HEAD' || ctx.method === 'OPTIONS') return;
    // Read once every router is mounted, as the document is.
    routes ??= new Map(mountedRoutes(app).map((route) => [`${route.method} ${route.path}`, route]));
    const route = routes.get(`${ctx.method.toLowerCase()} ${path}`);
    // Routes nobody described are reported by the docs test instead.
    if (!route?.doc) return;
    checked.count += 1;
    const problems = checkAnswer(route, ctx.status, ctx.body);
    if (problems.length > 0) {
      mismatches.push({
        request: `${ctx.method} ${ctx.originalUrl}`,
        route: `${ctx.method} ${path}`,
        status: ctx.status,
        problems,
      });
    }
  };
  return { middleware, mismatches, checked };
}

/** A readable report of `mismatches`, for a failing test. */
export function describeMismatches(mismatches: Mismatch[]): string {
  return mismatches
    .map((m) => `${m.request} → ${m.status} (route ${m.route}):\n  ${m.problems.join('\n  ')}`)
    .join('\n');
}

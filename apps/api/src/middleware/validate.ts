import type { Middleware } from 'koa';
import * as v from 'valibot';
import type { FieldError } from '@attestly/contracts';
import { AppError } from '../errors';

type Schema = v.GenericSchema;

interface Schemas {
  params?: Schema;
  query?: Schema;
  body?: Schema;
}

export interface ValidatedInput<S extends Schemas> {
  params: S['params'] extends Schema ? v.InferOutput<S['params']> : undefined;
  query: S['query'] extends Schema ? v.InferOutput<S['query']> : undefined;
  body: S['body'] extends Schema ? v.InferOutput<S['body']> : undefined;
}

/** The schema of the entry an issue's path leads to, walking object entries (and array items) from the root. */
function schemaAt(root: Schema, issue: v.BaseIssue<unknown>): Schema | null {
  let schema: unknown = root;
  for (const item of issue.path ?? []) {
    const current = schema as { entries?: Record<string, unknown>; item?: unknown } | undefined;
    if (current?.entries && typeof item.key === 'string') schema = current.entries[item.key];
    else if (current?.item !== undefined) schema = current.item;
    else return null;
  }
  return (schema as Schema | undefined) ?? null;
}

/**
 * valibot reports a missing key with the object's generic "Invalid key" message, without running the entry's own
 * schema. Running it on `undefined` yields the field's message instead ('Email is required', spec 01 §5).
 */
function issueMessage(root: Schema, issue: v.BaseIssue<unknown>): string {
  if (issue.kind === 'schema' && issue.path?.at(-1)?.origin === 'key') {
    const entry = schemaAt(root, issue);
    const result = entry ? v.safeParse(entry, undefined) : null;
    if (result && !result.success && result.issues[0]) return result.issues[0].message;
  }
  return issue.message;
}

function fieldErrors(root: Schema, issues: v.BaseIssue<unknown>[], prefix: string): FieldError[] {
  return issues.map((issue) => ({ path: v.getDotPath(issue) ?? prefix, message: issueMessage(root, issue) }));
}

/**
 * Validates params, query and body against valibot schemas from @attestly/contracts and puts the typed output on
 * `ctx.state.input`. Invalid fields → 422 with every problem listed; a body that is not a JSON object → 400.
 * (STYLE.md; modelled on logto's koa-guard.)
 */
export function validate<S extends Schemas>(schemas: S): Middleware {
  const middleware: Middleware = async (ctx, next) => {
    const input: Record<string, unknown> = {};
    const errors: FieldError[] = [];
    for (const part of ['params', 'query', 'body'] as const) {
      const schema = schemas[part];
      if (!schema) continue;
      let value: unknown =
        part === 'params' ? ctx.params : part === 'query' ? { ...ctx.query } : ctx.request.body;
      if (part === 'body') {
        if (value === undefined || value === null) value = {};
        if (typeof value !== 'object' || Array.isArray(value)) {
          throw new AppError(400, 'request.malformed', 'Request body must be a JSON object');
        }
      }
      // One message per field, the first that applies: an empty email is 'Email is required', not also 'Invalid email'.
      const result = v.safeParse(schema, value, { abortPipeEarly: true });
      if (result.success) input[part] = result.output;
      else errors.push(...fieldErrors(schema, result.issues, part));
    }
    if (errors.length > 0) {
      const first = errors[0] as FieldError;
      throw new AppError(422, 'validation.failed', first.message, errors);
    }
    ctx.state.input = input;
    await next();
  };
  // The OpenAPI document (modules/docs) reads the schemas from the mounted routes, so it cannot drift from them.
  return Object.assign(middleware, { schemas });
}

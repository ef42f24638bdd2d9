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

/** The one message for text that no field accepts (issue 21 item 10). */
export const INVALID_TEXT_MESSAGE = 'Must not contain NUL characters or invalid Unicode';

/** NUL, or a UTF-16 surrogate without its partner (not a character at all: no database can store it as text). */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const INVALID_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The paths of every string (values and object keys) that holds invalid text, anywhere in `value`. Walked with an
 * explicit stack, so a deeply nested JSON body cannot exhaust the call stack. PostgreSQL refuses NUL in text and
 * both databases would store an unpaired surrogate as U+FFFD, so such input is refused here, for every route and
 * every field, before any schema or handler sees it. (Invalid UTF-8 has already been decoded to U+FFFD, which is a
 * character like any other.)
 */
export function invalidTextPaths(value: unknown): string[] {
  interface Node {
    value: unknown;
    key: string | null;
    parent: Node | null;
  }
  // Paths are built only for what is found: a node points at its parent instead of carrying a copy of its path.
  const pathOf = (node: Node, key: string | null = null): string => {
    const keys = key === null ? [] : [key];
    for (let at: Node | null = node; at && at.key !== null; at = at.parent) keys.unshift(at.key);
    return keys.join('.');
  };
  const found: string[] = [];
  const stack: Node[] = [{ value, key: null, parent: null }];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    const current = node.value;
    if (typeof current === 'string') {
      if (INVALID_TEXT.test(current)) found.push(pathOf(node));
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => stack.push({ value: item, key: String(index), parent: node }));
    } else if (isPlainObject(current)) {
      for (const [key, item] of Object.entries(current)) {
        if (INVALID_TEXT.test(key)) found.push(pathOf(node, key));
        else stack.push({ value: item, key, parent: node });
      }
    }
  }
  return found;
}

/** Parsed JSON, query strings (null prototype) and route params; not files or buffers from a multipart body. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
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
      // Text that no field accepts is refused first, with one message, whatever the schema.
      const invalid = invalidTextPaths(value);
      if (invalid.length > 0) {
        errors.push(...invalid.map((path) => ({ path: path || part, message: INVALID_TEXT_MESSAGE })));
        continue;
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
  // The OpenAPI document (modules/public/docs) reads the schemas from the mounted routes, so it cannot drift from them.
  return Object.assign(middleware, { schemas });
}

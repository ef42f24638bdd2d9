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

function fieldErrors(issues: v.BaseIssue<unknown>[], prefix: string): FieldError[] {
  return issues.map((issue) => ({ path: v.getDotPath(issue) ?? prefix, message: issue.message }));
}

/**
 * Validates params, query and body against valibot schemas from @attestly/contracts and puts the typed output on
 * `ctx.state.input`. Invalid fields → 422 with every problem listed; a body that is not a JSON object → 400.
 * (STYLE.md; modelled on logto's koa-guard.)
 */
export function validate<S extends Schemas>(schemas: S): Middleware {
  return async (ctx, next) => {
    const input: Record<string, unknown> = {};
    const errors: FieldError[] = [];
    for (const part of ['params', 'query', 'body'] as const) {
      const schema = schemas[part];
      if (!schema) continue;
      let value: unknown = part === 'params' ? ctx.params : part === 'query' ? { ...ctx.query } : ctx.request.body;
      if (part === 'body') {
        if (value === undefined || value === null) value = {};
        if (typeof value !== 'object' || Array.isArray(value)) {
          throw new AppError(400, 'request.malformed', 'Request body must be a JSON object');
        }
      }
      const result = v.safeParse(schema, value);
      if (result.success) input[part] = result.output;
      else errors.push(...fieldErrors(result.issues, part));
    }
    if (errors.length > 0) {
      const first = errors[0] as FieldError;
      throw new AppError(422, 'validation.failed', first.message, errors);
    }
    ctx.state.input = input;
    await next();
  };
}

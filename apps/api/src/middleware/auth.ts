import type { Middleware } from 'koa';
import type { AccountKind } from '@attestly/contracts';
import { AppError } from '../errors';

export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}

/** Finds the live session a bearer token opens (modules/shared/sessions/service.ts implements it). */
export interface SessionLookup {
  authenticate(token: string, kinds: readonly AccountKind[]): Promise<object | null>;
}

/**
 * Requires a live session of one of `kinds`; puts it on `ctx.state.session`. A missing token and a bad one get
 * different messages (the first is a client bug, the second an expired sign-in) but the same 401 status.
 */
export function requireSession(
  sessions: SessionLookup,
  kinds: readonly AccountKind[],
  messages: { missing?: string; invalid?: string } = {},
): Middleware {
  const middleware: Middleware = async (ctx, next) => {
    const token = bearerToken(ctx.get('Authorization'));
    if (!token) throw new AppError(401, 'auth.missing_token', messages.missing ?? 'Authentication required');
    const session = await sessions.authenticate(token, kinds);
    if (!session) {
      throw new AppError(
        401,
        'auth.invalid_token',
        messages.invalid ?? 'Your session has expired. Please sign in again.',
      );
    }
    ctx.state.session = session;
    await next();
  };
  // Lets the OpenAPI document (modules/public/docs) mark the routes that need a bearer token.
  return Object.assign(middleware, { sessionKinds: kinds });
}

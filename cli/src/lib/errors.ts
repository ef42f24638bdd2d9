/**
 * An expected failure caused by the operator's input or environment (a wrong flag, a missing file, an unreachable
 * database): printed as one line plus a hint, exit code 1, never a stack. Anything else is a bug: exit code 2,
 * stack with --debug. Model: Shopify/cli `packages/cli-kit/src/public/node/error.ts` (AbortError vs BugError).
 */
export class UserError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'UserError';
  }
}

export const EXIT_OK = 0;
export const EXIT_USER = 1;
export const EXIT_BUG = 2;

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ETIMEDOUT',
  'EAI_AGAIN',
  '28P01',
  '3D000',
]);

/** Maps errors the API layer throws for operator mistakes onto UserError; returns null for bugs. */
export function asUserError(error: unknown): UserError | null {
  if (error instanceof UserError) return error;
  // Matched by name: the API modules load lazily (a command's --help should not load the whole server).
  const name = (error as { name?: string } | null)?.name ?? '';
  if (name === 'ConfigError')
    return new UserError(
      ((error as { problems: string[] }).problems ?? []).join('; '),
      'Fix the configuration (environment variables or the config file written by `attestly setup`).',
    );
  // The API's own AppError (apps/api/src/errors.ts): a 4xx is a refusal of the operator's input, in its words.
  if (name === 'AppError' && (error as { status: number }).status < 500)
    return new UserError((error as { detail: string }).detail);
  if (name === 'ArchiveError')
    return new UserError((error as Error).message, (error as { hint?: string }).hint);
  if (name === 'ValiError') return new UserError((error as Error).message);
  if (name === 'PendingMigrationsError')
    return new UserError((error as Error).message, 'Run `attestly migrate up`, then retry.');
  const code =
    (error as { code?: string } | null)?.code ??
    (error as { original?: { code?: string } } | null)?.original?.code ??
    (error as { parent?: { code?: string } } | null)?.parent?.code;
  if (
    (code && UNREACHABLE.has(code)) ||
    name === 'SequelizeConnectionRefusedError' ||
    name === 'SequelizeConnectionError' ||
    name === 'SequelizeHostNotFoundError' ||
    name === 'SequelizeAccessDeniedError'
  )
    return new UserError(
      `cannot reach the database: ${(error as Error).message}`,
      'Check DATABASE_URL (or the config file) and that the database server is running.',
    );
  return null;
}

import type { Clock } from '../../../lib/clock';
import { AppError, tooManyRequests } from '../../../errors';
import { decoyHash, verifyPassword } from '../../../lib/passwords';
import type { AuditEntry } from '../../shared/audit/service';
import type { AccountKind } from '@attestly/contracts';
import type { RequestOrigin, SessionService } from '../../shared/sessions/service';
import { INVALID_CREDENTIALS, LOCKED_OUT } from './limits';
import type { LoginLockout } from './lockout';

/** What the password step needs to know of an account: users, partners and administrators alike. */
interface SignInAccount {
  id: string;
  password_hash: string;
  locked_until?: Date | null;
}

/** The account-wide figures administrators see (spec 02 login_attempts / locked_until). */
export interface AccountFailures {
  login_attempts: number;
  locked_until?: Date;
}

/** Where the audiences differ: their audit events and field, the 429's message, and the account columns. */
export interface SignInAudience<A extends SignInAccount> {
  events: { failed: AuditEntry['event']; lockedOut: AuditEntry['event'] };
  subject: 'userId' | 'partnerId' | 'adminUserId';
  lockedMessage: string;
  /** Extra details that lead the locked-out entry's. */
  lockedOutDetails(account: A | null): Record<string, unknown>;
  /**
   * Audiences that keep the account-wide figures on the account row: a running lock there refuses the attempt, and
   * each failure writes the figures back. Administrators leave it out (their row's lock is the second factor's).
   */
  recordFailures?(account: A, figures: AccountFailures): Promise<unknown>;
}

export interface PasswordCheckDeps {
  clock: Clock;
  passwordCost: number;
  lockout: LoginLockout;
  audit: { recordSafely(entry: AuditEntry): Promise<void> };
}

const invalidCredentials = () => new AppError(401, 'auth.invalid_credentials', INVALID_CREDENTIALS);

/**
 * The password step of every sign-in (users, partners, administrators), with the lockout of lockout.ts: the attempt
 * claims its place in the counters before the password is checked, the password (or, for an unknown address, a
 * decoy hash) is always verified so that timing tells nothing, and a failure is counted, audited and answered 429
 * with Retry-After when it started a lock, or `wrong()` (401 by default) otherwise. Unknown addresses get exactly the
 * answers real accounts get. Returns the account once the password proved it.
 */
export function createPasswordCheck<A extends SignInAccount>(
  { clock, passwordCost, lockout, audit }: PasswordCheckDeps,
  audience: SignInAudience<A>,
) {
  return async function checkPassword(
    email: string,
    account: A | null,
    password: string,
    origin: RequestOrigin,
    wrong: () => AppError = invalidCredentials,
  ): Promise<A> {
    const attempt = await lockout.claim(email, origin.ip);
    const passwordOk = account
      ? await verifyPassword(password, account.password_hash)
      : (await verifyPassword(password, await decoyHash(passwordCost))) && false;
    if (attempt.refusedFor > 0) throw tooManyRequests(audience.lockedMessage, attempt.refusedFor);
    if (audience.recordFailures) {
      const now = clock.now();
      if (account?.locked_until && account.locked_until > now) {
        throw tooManyRequests(
          audience.lockedMessage,
          (account.locked_until.getTime() - now.getTime()) / 1000,
        );
      }
    }
    if (account && passwordOk) {
      await lockout.succeeded(email, origin.ip);
      return account;
    }
    const outcome = await lockout.failed(email, origin.ip, attempt);
    if (account && audience.recordFailures) {
      await audience.recordFailures(account, {
        login_attempts: outcome.accountFailures,
        ...(outcome.accountLockedUntil ? { locked_until: outcome.accountLockedUntil } : {}),
      });
    }
    await record(account, origin, audience.events.failed, 'warning', {
      reason: account ? 'wrong_password' : 'unknown_email',
      attempts: attempt.failures.pair,
      account_attempts: attempt.failures.account,
    });
    if (outcome.lockedFor > 0) {
      await record(account, origin, audience.events.lockedOut, 'error', {
        ...audience.lockedOutDetails(account),
        scope: outcome.locked,
        locked_for_seconds: outcome.lockedFor,
      });
      throw tooManyRequests(audience.lockedMessage, outcome.lockedFor);
    }
    throw wrong();
  };

  /** A failure's audit entry, on the audience's own field for the account (none for an unknown address). */
  function record(
    account: A | null,
    origin: RequestOrigin,
    event: AuditEntry['event'],
    severity: 'warning' | 'error',
    details: Record<string, unknown>,
  ): Promise<void> {
    return audit.recordSafely({
      event,
      severity,
      [audience.subject]: account?.id ?? null,
      ...origin,
      details,
    });
  }
}

/** What a sign-in that passed writes on the account row: no failures counted, no lock, and when it happened. */
export interface SignedInFigures {
  login_attempts: 0;
  locked_until: null;
  last_login_at: Date;
}

/**
 * The end of a password sign-in whose password and account state passed (users and partners): the account-wide
 * figures are cleared and the time noted, on the row (`write`) and on the instance the caller answers with, a
 * session of the account's kind is issued, and the success is audited with that session's id.
 */
function createSignedIn<A extends { id: string; set(values: SignedInFigures): unknown }>(
  { clock, sessions, audit }: Pick<PasswordCheckDeps, 'clock' | 'audit'> & { sessions: SessionService },
  audience: {
    kind: AccountKind;
    event: AuditEntry['event'];
    subject: 'userId' | 'partnerId';
    write(account: A, figures: SignedInFigures): Promise<unknown>;
  },
) {
  return async function signedIn(
    account: A,
    remember: boolean,
    origin: RequestOrigin,
    details: Record<string, unknown> = {},
  ) {
    const figures: SignedInFigures = { login_attempts: 0, locked_until: null, last_login_at: clock.now() };
    await audience.write(account, figures);
    account.set(figures);
    const issued = await sessions.issue(audience.kind, account.id, { remember, ...origin });
    await audit.recordSafely({
      event: audience.event,
      [audience.subject]: account.id,
      ...origin,
      details: { ...details, session_id: issued.session.id },
    });
    return issued;
  };
}

/**
 * The password sign-in of users and partners, whose failure figures live on the account row (`write`): the
 * password step with that kind's audit events and lockout message, and the end of a sign-in that passed.
 */
export function createAccountSignIn<A extends SignInAccount & { set(values: SignedInFigures): unknown }>(
  deps: PasswordCheckDeps & { sessions: SessionService },
  kind: 'user' | 'partner',
  audience: {
    lockedOutDetails(account: A | null): Record<string, unknown>;
    write(account: A, figures: AccountFailures | SignedInFigures): Promise<unknown>;
  },
) {
  const subject = kind === 'user' ? 'userId' : 'partnerId';
  return {
    checkPassword: createPasswordCheck<A>(deps, {
      events: { failed: `${kind}.login_failed`, lockedOut: `${kind}.locked_out` },
      subject,
      lockedMessage: LOCKED_OUT,
      lockedOutDetails: audience.lockedOutDetails,
      recordFailures: audience.write,
    }),
    signedIn: createSignedIn<A>(deps, {
      kind,
      event: `${kind}.login_succeeded`,
      subject,
      write: audience.write,
    }),
  };
}

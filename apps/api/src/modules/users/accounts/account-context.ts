import type { User } from '../../../db/models/index';
import type { Deps } from '../../../core/deps';
import { AppError, tooManyRequests } from '../../../errors';
import type { AuditService } from '../../shared/audit/service';
import { mailOutboxFor, type MailOutbox } from '../../shared/notifications/outbox';
import type { RateLimiter } from '../../shared/rate-limit/service';
import { createSessionEnder, type SessionEnder } from '../../shared/sessions/end-sessions';
import type { SessionService } from '../../shared/sessions/service';
import { createGrantService } from '../grants/service';
import { MAIL_BY_RECIPIENT } from './limits';
import { createLoginLockout, type LoginLockout } from './lockout';
import type { OneTimeTokens } from './one-time-tokens';

export interface AccountServices {
  sessions: SessionService;
  audit: AuditService;
  limiter: RateLimiter;
  tokens: OneTimeTokens;
}

/**
 * What the parts of the user's account service share (service.ts puts them together): the services, the sign-in
 * lockout and session ender, mail sent after the answer, and the lookups every part starts from.
 */
export interface AccountContext extends AccountServices {
  deps: Deps;
  lockout: LoginLockout;
  ender: SessionEnder;
  outbox: MailOutbox;
  later(what: string, work: () => Promise<void>): void;
  sendLater(to: string, subject: string, text: string): Promise<void>;
  findActiveUser(id: string): Promise<User>;
  spendRecipientBudget(address: string): Promise<void>;
  emailLink(token: string): string;
  whenIdle(): Promise<void>;
}

export function createAccountContext(deps: Deps, services: AccountServices): AccountContext {
  const { db, config, logger } = deps;
  const { User } = db.models;
  const { audit, limiter } = services;
  const lockout = createLoginLockout(deps, 'user');
  const ender = createSessionEnder(deps, { grants: createGrantService(deps, { audit }), audit });

  /**
   * Work done after the response (mail, and the steps whose duration would tell whether an account exists). It is
   * tracked so that shutdown, and tests, can wait for it to finish: `whenIdle()`.
   */
  const background = new Set<Promise<void>>();
  function later(what: string, work: () => Promise<void>): void {
    const task: Promise<void> = work()
      .catch((error: unknown) => logger.error({ err: error }, `${what} failed`))
      .finally(() => background.delete(task));
    background.add(task);
  }

  /**
   * Mail goes through the transactional outbox (notifications/outbox.ts): the returned promise resolves once the
   * message is stored (await it before answering, so a crash after the response loses nothing); it is sent right
   * after, by this process, or by the job runner's retries. SMTP latency never reaches the response, so it cannot
   * tell an attacker whether an account exists. Storing failures are logged, never thrown.
   */
  const outbox = mailOutboxFor(deps);
  function sendLater(to: string, subject: string, text: string): Promise<void> {
    const stored = outbox.enqueue({ to, subject, text });
    later('mail', () => stored);
    return stored.catch(() => undefined);
  }

  async function findActiveUser(id: string): Promise<User> {
    const user = await User.findByPk(id);
    if (!user || !user.is_active || user.deleted_at) {
      throw new AppError(401, 'auth.invalid_token', 'Your session has expired. Please sign in again.');
    }
    return user;
  }

  /** Counts one mail to `address` against its hourly budget; over it → 429 for everyone alike. */
  async function spendRecipientBudget(address: string) {
    const budget = await limiter.hit(MAIL_BY_RECIPIENT, address.toLowerCase());
    if (!budget.allowed)
      throw tooManyRequests(
        'Too many messages have been sent to this address. Please try again later.',
        budget.retryAfterSeconds,
      );
  }

  /** The link e-mails carry: a path, not a query (no "=" for quoted-printable to mangle), on a line of its own. */
  function emailLink(token: string) {
    return `${config.publicUrl}/confirm-email/${token}`;
  }

  return {
    ...services,
    deps,
    lockout,
    ender,
    outbox,
    later,
    sendLater,
    findActiveUser,
    spendRecipientBudget,
    emailLink,
    /** Resolves once all work started after earlier responses (mail included) has finished. */
    async whenIdle(): Promise<void> {
      while (background.size > 0) await Promise.all([...background]);
      await outbox.whenIdle();
    },
  };
}

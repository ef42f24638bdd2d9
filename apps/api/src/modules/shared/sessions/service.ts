import { Op } from 'sequelize';
import { TOKEN_PREFIX, type AccountKind } from '@attestly/contracts';
import { AppError } from '../../../errors';
import { randomToken, sha256 } from '../../../lib/crypto';
import type { Session } from '../../../db/models/index';
import { toBool, toDate } from '../../../db/rows';
import type { Deps } from '../../../core/deps';

export interface RequestOrigin {
  ip: string | null;
  userAgent: string | null;
}

export interface IssuedSession {
  token: string;
  session: Session;
}

/** How a new session is answered: its bearer token (RFC 6750) and when it expires. */
export const bearerAnswer = ({ token, session }: IssuedSession) => ({
  access_token: token,
  token_type: 'Bearer' as const,
  expires_at: session.expires_at.toISOString(),
});

/** What an authenticated request knows about its session. */
export interface SessionRecord {
  id: string;
  kind: AccountKind;
  subject_id: string;
  remember: boolean;
  last_used_at: Date | null;
  expires_at: Date;
  /**
   * A user session's account row (`users.*`, raw), read in the same statement as the session for this request's own
   * reads (GET /users/profile): one round trip instead of two on PostgreSQL. Null when the row is gone; absent for
   * other kinds. Not a cache: it is read afresh with the session on every request. Not enumerable.
   */
  user?: Record<string, unknown> | null;
  /**
   * With `user`: whether a partner account that is not suspended has the user's address, proven by mail (spec 01
   * §6 `is_partner`), from the same statement. Not enumerable.
   */
  ownsPartner?: boolean;
}

/** The `users.*` part of a joined session row: its columns without the `_s_` ones; null when no user row joined. */
function userColumns(row: Record<string, unknown>): Record<string, unknown> | null {
  if (row.id === null || row.id === undefined) return null;
  const user: Record<string, unknown> = {};
  for (const key in row) if (!key.startsWith('_s_')) user[key] = row[key];
  return user;
}

/** How stale `last_used_at` may get before a request refreshes it: avoids a write on every request. */
const TOUCH_INTERVAL_MS = 5 * 60_000;

/**
 * Kinds that also end after a spell without use (spec 02: admin sessions end after 30 minutes idle). Their
 * `last_used_at` is refreshed every minute, so the idle limit holds to within a minute.
 */
export const IDLE_LIMIT_MS: Partial<Record<AccountKind, number>> = {
  admin: 30 * 60_000,
  admin_setup: 30 * 60_000,
};
const IDLE_TOUCH_INTERVAL_MS = 60_000;

const SESSION_COLUMNS =
  's.id AS _s_id, s.kind AS _s_kind, s.subject_id AS _s_subject_id, s.remember AS _s_remember, s.last_used_at AS _s_last_used_at, s.expires_at AS _s_expires_at';
/**
 * A session by its token's hash; for a user session also the account's row. sessions.subject_id is text and users.id
 * a UUID on PostgreSQL, so the join casts it, and only when it has a UUID's form (a cast of anything else would fail
 * the statement); SQLite compares text.
 */
const SESSION_SQL = {
  other: `SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.token_hash = :hash`,
  user: {
    sqlite: `SELECT ${SESSION_COLUMNS}, u.*,
      EXISTS (SELECT 1 FROM partners p WHERE LOWER(p.email) = LOWER(u.email) AND p.email_verified_at IS NOT NULL
        AND p.status <> 'suspended') AS _s_owns_partner FROM sessions s
      LEFT JOIN users u ON s.kind = 'user' AND u.id = s.subject_id
      WHERE s.token_hash = :hash`,
    postgres: `SELECT ${SESSION_COLUMNS}, u.*,
      EXISTS (SELECT 1 FROM partners p WHERE LOWER(p.email) = LOWER(u.email) AND p.email_verified_at IS NOT NULL
        AND p.status <> 'suspended') AS _s_owns_partner FROM sessions s
      LEFT JOIN users u ON s.kind = 'user' AND u.id = CASE
        WHEN s.subject_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN CAST(s.subject_id AS uuid) END
      WHERE s.token_hash = :hash`,
  },
} as const;

/**
 * Opaque bearer sessions for every account kind (DESIGN.md §3). A token is `<kind prefix><32 random bytes>`; only
 * its SHA-256 is stored, so a database leak yields no usable token. Looking a token up by its hash is also what
 * makes the comparison constant-time: there is no string comparison against a secret.
 */
export function createSessionService({ db, config, clock }: Pick<Deps, 'db' | 'config' | 'clock'>) {
  const { Session } = db.models;

  function kindOf(token: string): AccountKind | null {
    for (const [kind, prefix] of Object.entries(TOKEN_PREFIX))
      if (token.startsWith(prefix)) return kind as AccountKind;
    return null;
  }

  /** A new session's token and row: the token is answered once, only its hash is stored (DESIGN.md §3). */
  function newSession(
    kind: AccountKind,
    subjectId: string,
    remember: boolean,
    origin: RequestOrigin,
    ttlMs: number,
  ) {
    const token = TOKEN_PREFIX[kind] + randomToken(32);
    const now = clock.now();
    const row = {
      kind,
      subject_id: subjectId,
      token_hash: sha256(token),
      remember,
      ip_address: origin.ip?.slice(0, 64) ?? null,
      user_agent: origin.userAgent?.slice(0, 512) ?? null,
      created_at: now,
      last_used_at: now,
      expires_at: new Date(now.getTime() + ttlMs),
    };
    return { token, row };
  }

  async function issue(
    kind: AccountKind,
    subjectId: string,
    options: { remember: boolean; ttlMs?: number } & RequestOrigin,
  ): Promise<IssuedSession> {
    const ttl = options.ttlMs ?? (options.remember ? config.rememberTtlMs : config.sessionTtlMs);
    const { token, row } = newSession(kind, subjectId, options.remember, options, ttl);
    return { token, session: await Session.create(row) };
  }

  /**
   * The live session a token names, if it is of an accepted kind and not expired. This runs on every
   * authenticated request, so it is one prepared statement (db.read) rather than an ORM query.
   */
  async function authenticate(token: string, kinds: readonly AccountKind[]): Promise<SessionRecord | null> {
    const kind = kindOf(token);
    if (!kind || !kinds.includes(kind) || token.length > 100) return null;
    const [row] = await db.read<Record<string, unknown>>(
      kind === 'user' ? SESSION_SQL.user[db.dialect] : SESSION_SQL.other,
      { hash: sha256(token) },
    );
    const now = clock.now();
    const session: SessionRecord | null = row
      ? {
          id: row._s_id as string,
          kind: row._s_kind as AccountKind,
          subject_id: row._s_subject_id as string,
          remember: toBool(row._s_remember),
          last_used_at: toDate(row._s_last_used_at),
          expires_at: toDate(row._s_expires_at) as Date,
        }
      : null;
    // Not enumerable: the row holds the password hash, and nothing that lists or logs a session should carry it.
    if (session && kind === 'user' && row) {
      Object.defineProperty(session, 'user', { value: userColumns(row), enumerable: false });
      Object.defineProperty(session, 'ownsPartner', {
        value: toBool(row._s_owns_partner),
        enumerable: false,
      });
    }
    if (!session || session.kind !== kind || session.expires_at <= now) return null;
    const idleLimit = IDLE_LIMIT_MS[session.kind];
    const idleFor = session.last_used_at ? now.getTime() - session.last_used_at.getTime() : 0;
    if (idleLimit !== undefined && idleFor > idleLimit) return null;
    const touchEvery = idleLimit !== undefined ? IDLE_TOUCH_INTERVAL_MS : TOUCH_INTERVAL_MS;
    if (!session.last_used_at || idleFor > touchEvery) {
      await Session.update({ last_used_at: now }, { where: { id: session.id } });
    }
    return session;
  }

  /** Replaces a session by a new one with a fresh token and expiry; the old token stops working at once. */
  async function rotate(session: SessionRecord, origin: RequestOrigin): Promise<IssuedSession> {
    return db.sequelize.transaction(async (transaction) => {
      const deleted = await Session.destroy({ where: { id: session.id }, transaction });
      // Two refreshes raced with one token: the loser's token is already spent, as if it had been revoked.
      if (deleted === 0)
        throw new AppError(401, 'auth.invalid_token', 'Your session has expired. Please sign in again.');
      const ttl = session.remember ? config.rememberTtlMs : config.sessionTtlMs;
      const { token, row } = newSession(session.kind, session.subject_id, session.remember, origin, ttl);
      return { token, session: await Session.create(row, { transaction }) };
    });
  }

  return {
    kindOf,
    issue,
    authenticate,
    rotate,
    async revoke(sessionId: string): Promise<void> {
      await Session.destroy({ where: { id: sessionId } });
    },
    /** Revokes every session of an account, optionally keeping one (the one making the request). */
    async revokeAll(kind: AccountKind, subjectId: string, exceptId?: string): Promise<number> {
      return Session.destroy({
        where: { kind, subject_id: subjectId, ...(exceptId ? { id: { [Op.ne]: exceptId } } : {}) },
      });
    },
    async list(kind: AccountKind, subjectId: string): Promise<Session[]> {
      return Session.findAll({
        where: { kind, subject_id: subjectId, expires_at: { [Op.gt]: clock.now() } },
        order: [['created_at', 'DESC']],
      });
    },
    async purgeExpired(): Promise<number> {
      return Session.destroy({ where: { expires_at: { [Op.lte]: clock.now() } } });
    },
  };
}
export type SessionService = ReturnType<typeof createSessionService>;

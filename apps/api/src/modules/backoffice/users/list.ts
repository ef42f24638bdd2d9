import type * as v from 'valibot';
import type { adminUserListQuery } from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import { Where, page, probeRows, type PageQuery } from '../../shared/paging/page';
import { anyContains, shortTerm } from '../../shared/paging/search';
import { countsBy } from '../common';
import { USER_COLUMNS, presentAdminUser, type UserRow } from './presenters';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A user with their open flag, if any. */
export const USER_FROM = 'users u LEFT JOIN user_flags f ON f.user_id = u.id AND f.resolved_at IS NULL';
/** Flagged users only: driven by the (few) open flags rather than by every user. */
const FLAGGED_FROM = 'user_flags f JOIN users u ON u.id = f.user_id';

/** The back office's user list (spec 02 "Users"): search, country, flags and verification state, newest first. */
export function createUserList({ db, clock }: Pick<Deps, 'db' | 'clock'>) {
  function verifiedClause(now: Date) {
    return {
      // Every term guards its NULLs, so that NOT (…) is true for a user with nothing proven.
      sql: `((u.proven_min_age IS NOT NULL AND u.age_verified_until IS NOT NULL AND u.age_verified_until > :now)
        OR (u.location_verified_until IS NOT NULL AND u.location_verified_until > :now)
        OR (u.identity_verified_until IS NOT NULL AND u.identity_verified_until > :now))`,
      params: { now },
    };
  }

  async function list(query: v.InferOutput<typeof adminUserListQuery>) {
    const now = clock.now();
    const where = new Where().add('u.deleted_at IS NULL');
    let scan = false;
    let materialize = false;
    let probe: PageQuery['probe'];
    if (query.search) {
      if (UUID.test(query.search)) where.add('u.id = :id', { id: query.search.toLowerCase() });
      else {
        // PostgreSQL answers these from the pg_trgm indexes on LOWER(email) and LOWER(full_name) (migration
        // 20261126120100); elsewhere one pass over the matches gives the page's keys and the total together.
        const match = anyContains(db, ['u.email', 'u.full_name'], query.search);
        where.add(match.sql, match.params);
        scan = true;
        // The newest users first (`page`'s probe), then one pass. A term too short for a trigram reads every user
        // whatever the plan (PostgreSQL, see `page`). Flagged users only are few, and read in one pass.
        materialize = shortTerm(query.search);
        if (!query.flagged_only) probe = { rows: probeRows(query.search), search: where.parts.length - 1 };
      }
    }
    if (query.country) where.add('u.country = :country', { country: query.country });
    if (query.flagged_only) where.add('f.resolved_at IS NULL');
    const verified = verifiedClause(now);
    if (query.verified_only || query.verification_status === 'verified')
      where.add(verified.sql, verified.params);
    if (query.verification_status === 'pending') {
      // The pending set is small and indexed by status: looked up once rather than once per user.
      where.add("u.id IN (SELECT pv.user_id FROM verifications pv WHERE pv.status = 'pending')");
    }
    if (query.verification_status === 'unverified') {
      where.add(`NOT ${verified.sql}`, verified.params);
      where.add("u.id NOT IN (SELECT pv.user_id FROM verifications pv WHERE pv.status = 'pending')");
    }
    const result = await page<UserRow>(
      db,
      {
        select: USER_COLUMNS,
        from: query.flagged_only ? FLAGGED_FROM : USER_FROM,
        where,
        order: 'u.created_at DESC, u.id DESC',
        countFrom: query.flagged_only ? FLAGGED_FROM : 'users u',
        // Deferred join over users_live_created (created_at, id) or users_country_created (country, created_at, id).
        key: 'u.id',
        scan,
        materialize,
        probe,
      },
      query,
    );
    const ids = result.rows.map((row) => row.id);
    const [verifications, authorizations] = await Promise.all([
      countsBy(db, 'verifications', 'user_id', ids),
      countsBy(db, 'oauth_authorizations', 'user_id', ids, 'AND revoked_at IS NULL AND expires_at > :now', {
        now,
      }),
    ]);
    return {
      users: result.rows.map((row) =>
        presentAdminUser(
          row,
          { verifications: verifications.get(row.id) ?? 0, authorizations: authorizations.get(row.id) ?? 0 },
          now,
        ),
      ),
      total_count: result.total,
    };
  }

  return list;
}

import type { Account, AccountClaims, FindAccount } from 'oidc-provider';
import { SCOPES, scopeAgeThreshold, type Scope } from '@attestly/contracts';
import type { Deps } from '../core/deps';
import type { User } from '../db/models';
import { deriveKey, hmacSha256 } from '../lib/crypto';
import { fromRow } from '../db/rows';
import { accountOfRequest } from './request-rows';

/**
 * Scope → claims (DESIGN.md §4). Minimal disclosure: a partner learns yes/no answers about what the user proved,
 * never a birth date, a document or a photo. oidc-provider releases a claim only when a granted scope lists it.
 */
export const SCOPE_CLAIMS: Record<string, string[]> = {
  openid: ['sub'],
  // Only the pairwise subject: name and e-mail are their own declinable scopes (issue 15 item 4), since the same
  // address or name at every partner would undo pairwise subjects.
  basic_info: [],
  profile: ['name'],
  email: ['email', 'email_verified'],
  ...Object.fromEntries(
    SCOPES.filter((scope) => scopeAgeThreshold(scope) !== null).map((scope) => [
      scope,
      ['age_verified', 'age_threshold', `age_over_${scopeAgeThreshold(scope)}`, 'verification_timestamp'],
    ]),
  ),
  location_verification: ['location_verified', 'location'],
  identity_verification: ['identity_verified', 'verified_claims'],
};

const live = (until: Date | null, now: Date) => until !== null && until > now;

/**
 * Verification times are released to the day (midnight UTC): a time to the millisecond, identical at every partner
 * the user signs in to, would link the user across partners as surely as an e-mail address (issue 15 item 4).
 */
export const dayOf = (time: Date): string => `${time.toISOString().slice(0, 10)}T00:00:00Z`;

/** What the user has proven right now, per product scope (expired proofs do not count). */
export function provenScopes(user: User, now: Date): Record<Scope, boolean> {
  const ageLive = user.proven_min_age !== null && live(user.age_verified_until, now);
  return Object.fromEntries(
    SCOPES.map((scope) => {
      const threshold = scopeAgeThreshold(scope);
      if (threshold !== null) return [scope, ageLive && (user.proven_min_age as number) >= threshold];
      if (scope === 'location_verification')
        return [scope, live(user.location_verified_until, now) && !!user.location_country];
      if (scope === 'identity_verification') return [scope, live(user.identity_verified_until, now)];
      return [scope, true];
    }),
  ) as Record<Scope, boolean>;
}

/**
 * The claims for the scopes of one token (DESIGN.md §4; spec 01 §3 sample userinfo). A fact is stated only when it
 * is proven and live: `*_verified` booleans say whether the requested fact is proven; the facts themselves
 * (`age_over_NN`, `verification_timestamp`, `location`, `verified_claims`) are absent when it is not.
 */
export function claimsFor(user: User, scopes: readonly string[], now: Date): AccountClaims {
  const claims: AccountClaims = { sub: user.id };
  if (scopes.includes('profile')) claims.name = user.full_name;
  if (scopes.includes('email')) {
    claims.email = user.email;
    claims.email_verified = user.email_verified_at !== null;
  }
  const thresholds = scopes.map(scopeAgeThreshold).filter((value): value is number => value !== null);
  if (thresholds.length) {
    const ageLive = user.proven_min_age !== null && live(user.age_verified_until, now);
    const proven = ageLive ? (user.proven_min_age as number) : -1;
    const threshold = Math.max(...thresholds);
    claims.age_threshold = threshold;
    claims.age_verified = proven >= threshold;
    // `age_over_NN` is present only when proven: Attestly never proves that someone is under an age, and a bare
    // `false` would read as "under NN" when it only means "not proven" (issue 10 item 8; OpenID Connect Core §5.3.2
    // omits claims that have no value rather than sending null). `age_verified: false` says the request is unproven.
    for (const each of thresholds) if (proven >= each) claims[`age_over_${each}`] = true;
    if (ageLive && user.age_verified_at) claims.verification_timestamp = dayOf(user.age_verified_at);
  }
  if (scopes.includes('location_verification')) {
    const verified = live(user.location_verified_until, now) && !!user.location_country;
    claims.location_verified = verified;
    if (verified) claims.location = { country: user.location_country, state: user.location_state };
  }
  if (scopes.includes('identity_verification')) {
    const verified = live(user.identity_verified_until, now);
    claims.identity_verified = verified;
    if (verified && user.identity_verified_at) {
      // OpenID Connect for Identity Assurance 1.0: only the verification metadata, no personal data.
      claims.verified_claims = {
        verification: {
          trust_framework: 'attestly',
          time: dayOf(user.identity_verified_at),
          evidence: [{ type: 'document', time: dayOf(user.identity_verified_at) }],
        },
        claims: { identity_verified: true },
      };
    }
  }
  return claims;
}

/**
 * Pairwise subject identifiers (OpenID Connect Core §8.1) with the partner as the sector: the same user gets the
 * same `sub` at every site of one partner and unrelated ones at different partners, so partners cannot link
 * users. A keyed HMAC, so nobody without the master key can map a `sub` back to the user.
 */
export function pairwiseSubject(masterKey: Buffer, partnerId: string, userId: string): string {
  return hmacSha256(pairwiseKey(masterKey), `${partnerId}:${userId}`);
}

/** The derived key never changes for a master key; HKDF on every token and userinfo request was measurable. */
const pairwiseKeys = new WeakMap<Buffer, Buffer>();
function pairwiseKey(masterKey: Buffer): Buffer {
  let key = pairwiseKeys.get(masterKey);
  if (!key) pairwiseKeys.set(masterKey, (key = deriveKey(masterKey, 'oidc-pairwise-subjects')));
  return key;
}

/** The columns `claimsFor` and the account checks need, and no others (no password hash, no contact details). */
export const ACCOUNT_COLUMNS = [
  'id',
  'email',
  'email_verified_at',
  'full_name',
  'is_active',
  'deleted_at',
  'proven_min_age',
  'age_verified_at',
  'age_verified_until',
  'location_country',
  'location_state',
  'location_verified_until',
  'identity_verified_at',
  'identity_verified_until',
] as const;
const ACCOUNT_SQL = `SELECT ${ACCOUNT_COLUMNS.join(', ')} FROM users WHERE id = :id`;

/**
 * A browser whose provider session names an account that is gone (deleted, disabled, or erased without its
 * sessions being ended) is treated as signed out: the session forgets the account and gets a new identifier, so
 * the authorization request asks to sign in afresh instead of failing on an account that cannot be loaded
 * (issue 15 item 3).
 */
function forgetSignIn(ctx: Parameters<FindAccount>[0] | undefined, sub: string): void {
  const session = (ctx as { oidc?: { entities?: { Session?: Record<string, unknown> } } } | undefined)?.oidc
    ?.entities?.Session as
    | { accountId?: string; authorizations?: unknown; loginTs?: number; resetIdentifier?: () => void }
    | undefined;
  if (!session || session.accountId !== sub) return;
  session.accountId = undefined;
  session.authorizations = undefined;
  session.loginTs = undefined;
  session.resetIdentifier?.();
}

/** Accounts without a users row: a wallet presentation's one-time subject and its claims (modules/users/wallet). */
export type EphemeralAccounts = (accountId: string) => Promise<Record<string, unknown> | null>;

export function createFindAccount(
  deps: Pick<Deps, 'db' | 'clock'>,
  ephemeral?: EphemeralAccounts,
): FindAccount {
  const { User } = deps.db.models;
  return async (ctx, sub): Promise<Account | undefined> => {
    // A plain SELECT (db.read) rather than User.findByPk: this runs on every userinfo and token request. At
    // userinfo the row was read in the same statement as the access token (adapter.ts RequestRows).
    const prefetched = accountOfRequest(sub);
    const row = prefetched
      ? await prefetched
      : (await deps.db.read<Record<string, unknown>>(ACCOUNT_SQL, { id: sub }))[0];
    const user = row ? fromRow<User>(User, row) : null;
    if (!user && ephemeral) {
      const claims = await ephemeral(sub);
      if (claims) return { accountId: sub, claims: () => ({ ...claims, sub }) };
    }
    if (!user || !user.is_active || user.deleted_at) {
      forgetSignIn(ctx, sub);
      return undefined;
    }
    return {
      accountId: user.id,
      claims: (_use, scope) => claimsFor(user, scope.split(' '), deps.clock.now()),
    };
  };
}

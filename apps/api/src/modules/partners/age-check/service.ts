import { Op } from 'sequelize';
import {
  scopeAgeThreshold,
  type AgeCheckMethod,
  type AgeThreshold,
  type ApiKeyEnvironment,
  type PartnerAgeAnswer,
} from '@attestly/contracts';
import type { Database } from '../../../db/database';
import type { Clock } from '../../../lib/clock';
import { AppError } from '../../../errors';
import { dayOf, pairwiseSubject } from '../../../oidc/account';

/** What the partner's age question needs (the pieces of the shared deps it reads). */
export interface AgeCheckDeps {
  db: Database;
  clock: Clock;
  config: { masterKey: Buffer; publicUrl: string };
}

export interface AgeQuestion {
  partnerId: string;
  /** The API key's environment: a sandbox key sees only sandbox sites' users, a live key only live sites'. */
  environment: ApiKeyEnvironment | null;
  userId: string;
  threshold: AgeThreshold;
  method: AgeCheckMethod | null;
}

const NOT_CONNECTED =
  'No user with this id has an active authorization for your sites. Send the user through your sign-in with Attestly first.';

/**
 * The partner's server-side age question (POST /partners/verify-age; the SDK's `verifyAge`). Minimal disclosure as in
 * OpenID Connect (DESIGN.md §4): the partner learns a yes/no only about a user who granted one of its sites an age
 * scope at least as high as the threshold asked, and only by the pairwise subject those sites received.
 */
export function createPartnerAgeCheck(deps: AgeCheckDeps) {
  const { db, clock, config } = deps;
  const { OAuthAuthorization, Site, User, Verification } = db.models;

  /** The user behind a pairwise subject among the partner's live grants, and the scopes they granted. */
  async function grantedUser(question: AgeQuestion): Promise<{ userId: string; scopes: Set<string> } | null> {
    const now = clock.now();
    const sites =
      question.environment === null
        ? null
        : await Site.findAll({
            where: { partner_id: question.partnerId, sandbox: question.environment === 'sandbox' },
            attributes: ['id'],
          });
    const grants = await OAuthAuthorization.findAll({
      where: {
        partner_id: question.partnerId,
        revoked_at: null,
        expires_at: { [Op.gt]: now },
        ...(sites ? { site_id: sites.map((site) => site.id) } : {}),
      },
      attributes: ['user_id', 'scopes'],
    });
    // Pairwise subjects are keyed hashes and cannot be reversed: the partner's live grants are few enough to hash.
    let found: { userId: string; scopes: Set<string> } | null = null;
    for (const grant of grants) {
      if (pairwiseSubject(config.masterKey, question.partnerId, grant.user_id) !== question.userId) continue;
      found ??= { userId: grant.user_id, scopes: new Set() };
      for (const scope of grant.scopes) found.scopes.add(scope);
    }
    return found;
  }

  async function verifyAge(question: AgeQuestion): Promise<PartnerAgeAnswer> {
    const granted = await grantedUser(question);
    if (!granted) throw new AppError(404, 'partner.user_not_connected', NOT_CONNECTED);
    const allowed = [...granted.scopes].some(
      (scope) => (scopeAgeThreshold(scope) ?? -1) >= question.threshold,
    );
    if (!allowed) {
      throw new AppError(
        403,
        'partner.scope_not_granted',
        `This user has not agreed to share an age of ${question.threshold} or over with your sites: ask for the AGE_${question.threshold} scope.`,
      );
    }
    const now = clock.now();
    const user = await User.findByPk(granted.userId);
    const ageLive =
      !!user &&
      user.is_active &&
      user.proven_min_age !== null &&
      user.age_verified_until !== null &&
      user.age_verified_until > now &&
      user.proven_min_age >= question.threshold;
    let provenAt = ageLive ? user.age_verified_at : null;
    if (ageLive && question.method) {
      // Proven by that method: a live approved age verification of it whose proof reaches the threshold.
      const rows = await Verification.findAll({
        where: {
          user_id: granted.userId,
          verification_method: question.method,
          status: 'approved',
          expires_at: { [Op.gt]: now },
        },
        attributes: ['result_details', 'created_at'],
        order: [['created_at', 'DESC']],
      });
      const proving = rows.find(
        (row) =>
          ((row.result_details as { proves?: { minAge?: number } }).proves?.minAge ?? -1) >=
          question.threshold,
      );
      provenAt = proving ? new Date(proving.created_at) : null;
    }
    const verified = provenAt !== null;
    const verifyUrl = new URL('/verification', config.publicUrl);
    if (question.method) verifyUrl.searchParams.set('method', question.method);
    return {
      verified,
      user_id: question.userId,
      age_threshold: question.threshold,
      method: question.method,
      verification_timestamp: verified ? dayOf(provenAt as Date) : null,
      verify_url: verified ? null : verifyUrl.toString(),
    };
  }

  return { verifyAge };
}
export type PartnerAgeCheck = ReturnType<typeof createPartnerAgeCheck>;

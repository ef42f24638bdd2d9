import type { Database } from '../../../db/database';
import { toBool, toDate } from '../../../db/rows';
import { AppError } from '../../../errors';
import type { IssuingMethod } from './config';

/**
 * Which age proofs may back a wallet credential (issue 24 item 2; research §5.8). A credential states only what a
 * proof of an accepted kind shows, and lasts no longer than that proof: a user who proved 25 by face and 18 by
 * document gets "18" under the default policy, which does not accept face estimation.
 */
export interface CredentialBacking {
  provenMinAge: number;
  /** When the proof behind the credential stops counting. */
  until: Date;
  method: IssuingMethod;
}

const METHOD_WORDS: Record<IssuingMethod, string> = {
  document: 'an identity document',
  manual_review: 'a document checked by a reviewer',
  facial_estimation: 'face age estimation',
};

export const describeMethods = (methods: readonly IssuingMethod[]) =>
  methods.map((method) => METHOD_WORDS[method]).join(' or ');

interface ProofRow {
  verification_method: string;
  reviewed_by: string | null;
  result_details: unknown;
  expires_at: unknown;
}

/** How an approved verification proved an age, in the policy's words; null when it proves no age. */
function methodOf(row: ProofRow): IssuingMethod | null {
  if (row.verification_method === 'document') return row.reviewed_by ? 'manual_review' : 'document';
  if (row.verification_method === 'facial_recognition') return 'facial_estimation';
  return null;
}

function provenAgeOf(row: ProofRow): number | null {
  const details =
    typeof row.result_details === 'string' ? JSON.parse(row.result_details) : row.result_details;
  const age = (details as { proves?: { minAge?: unknown } } | null)?.proves?.minAge;
  return typeof age === 'number' ? age : null;
}

export class IssuingRefused extends AppError {
  constructor(
    code: 'wallet.no_age_proof' | 'wallet.method_not_accepted',
    detail: string,
    readonly reason: string,
  ) {
    super(403, code, detail);
  }
}

export function createIssuingPolicy(deps: { db: Database }, allowed: readonly IssuingMethod[]) {
  /** The proof a credential for this user would rest on now, or an IssuingRefused saying why there is none. */
  async function backing(userId: string, now: Date): Promise<CredentialBacking> {
    const [user] = await deps.db.read<{
      proven_min_age: number | null;
      age_verified_until: unknown;
      is_active: unknown;
      deleted_at: unknown;
    }>('SELECT proven_min_age, age_verified_until, is_active, deleted_at FROM users WHERE id = :id', {
      id: userId,
    });
    const userUntil = toDate(user?.age_verified_until);
    if (
      !user ||
      !toBool(user.is_active) ||
      user.deleted_at ||
      user.proven_min_age === null ||
      !userUntil ||
      userUntil <= now
    ) {
      throw new IssuingRefused(
        'wallet.no_age_proof',
        'Verify your age first: a wallet credential needs a current age verification.',
        'no live age proof',
      );
    }
    const rows = await deps.db.read<ProofRow>(
      `SELECT verification_method, reviewed_by, result_details, expires_at FROM verifications
        WHERE user_id = :id AND status = 'approved' AND expires_at > :now`,
      { id: userId, now },
    );
    let best: CredentialBacking | null = null;
    const seen = new Set<IssuingMethod>();
    for (const row of rows) {
      const method = methodOf(row);
      const age = provenAgeOf(row);
      const until = toDate(row.expires_at);
      if (!method || age === null || !until) continue;
      seen.add(method);
      if (!allowed.includes(method)) continue;
      const candidate: CredentialBacking = {
        provenMinAge: Math.min(age, user.proven_min_age),
        until: until < userUntil ? until : userUntil,
        method,
      };
      if (
        !best ||
        candidate.provenMinAge > best.provenMinAge ||
        (candidate.provenMinAge === best.provenMinAge && candidate.until > best.until)
      )
        best = candidate;
    }
    if (!best) {
      const used = [...seen];
      throw new IssuingRefused(
        'wallet.method_not_accepted',
        `Wallet credentials need an age proven with ${describeMethods(allowed)}.` +
          (used.length
            ? ` Your age was proven with ${describeMethods(used)}, which is not accepted for them.`
            : '') +
          ' Verify your age with an identity document to add it to your wallet.',
        `methods ${used.join(',') || 'none'} not in ${allowed.join(',')}`,
      );
    }
    return best;
  }
  return { backing };
}
export type IssuingPolicy = ReturnType<typeof createIssuingPolicy>;

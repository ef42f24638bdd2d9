import type { VerificationStatus, VerificationSummary } from '@attestly/contracts';
import type { Verification } from '../../../db/models/index';
import { ownerDocumentAnalysis, withoutReuse } from './document-reuse';

/** Internal bookkeeping that the owner has no use for (the facts a review would apply). Reviewers see it all. */
const HIDDEN_DETAILS = new Set(['proves']);

/** A verification as its owner sees it; an approval whose validity has run out reads as expired. */
export function presentVerification(row: Verification, now: Date): VerificationSummary {
  const status: VerificationStatus =
    row.status === 'approved' && row.expires_at !== null && row.expires_at <= now ? 'expired' : row.status;
  const details = Object.fromEntries(
    Object.entries(row.result_details ?? {})
      .filter(([key]) => !HIDDEN_DETAILS.has(key))
      // A decision may name the document's reuse on other accounts: for reviewers only (document-reuse.ts).
      .map(([key, value]) => [key, typeof value === 'string' ? withoutReuse(value) : value]),
  );
  return {
    id: row.id,
    verification_id: row.id,
    verification_type: row.verification_type,
    verification_method: row.verification_method,
    status,
    confidence_score: row.confidence_score,
    age_threshold: row.age_threshold,
    needs_manual_review: row.needs_manual_review,
    message: row.message,
    details,
    document_analysis: ownerDocumentAnalysis(row.document_analysis ?? null),
    submitted_at: row.created_at.toISOString(),
    reviewed_at: row.reviewed_at ? row.reviewed_at.toISOString() : null,
  };
}

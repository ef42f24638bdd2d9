import { flag, nullable, required, sql, stamp, stampedTable, uuidKey, withDefault } from './columns';
import type {
  ReviewerDocumentAnalysis,
  VerificationMethod,
  VerificationStatus,
  VerificationType,
} from '@attestly/contracts';

export interface ReviewNote {
  timestamp: string;
  note: string;
  /** Who wrote it: 'system' or an admin user id. */
  author?: string;
}

/**
 * One verification attempt (DESIGN.md §5, spec 02 §3 "Verification"). A user's proven facts on `users` derive from
 * approved rows. `subject_fingerprint` is a keyed HMAC of what was checked (e.g. a card number), never the value.
 */
export class Verification extends stampedTable('verifications', {
  id: uuidKey(),
  user_id: required(sql.uuid()),
  verification_type: required(sql.string<VerificationType>(16)),
  verification_method: required(sql.string<VerificationMethod>(32)),
  status: required(sql.string<VerificationStatus>(16)),
  confidence_score: nullable(sql.double()),
  age_threshold: nullable(sql.integer()),
  needs_manual_review: flag(false),
  /** The message the user was shown. */
  message: nullable(sql.string(500)),
  result_details: withDefault(sql.json<Record<string, unknown>>(), {}),
  /** The reading with what only reviewers see (the document's reuse on other accounts). */
  document_analysis: nullable(sql.json<ReviewerDocumentAnalysis>()),
  review_notes: withDefault(sql.json<ReviewNote[]>(), []),
  subject_fingerprint: nullable(sql.string(64)),
  /** Set when a partner's consent flow asked for the check (statistics per partner and site). */
  partner_id: nullable(sql.string(64)),
  site_id: nullable(sql.string(64)),
  /** Made through a sandbox API key or a sandbox site: marked in results, never counted toward quotas or stats. */
  sandbox: flag(false),
  reviewed_at: nullable(sql.date()),
  reviewed_by: nullable(sql.string(64)),
  /** When the fact this row proved stops counting (approved rows only). */
  expires_at: nullable(sql.date()),
  created_at: stamp(),
  updated_at: stamp(),
}) {}

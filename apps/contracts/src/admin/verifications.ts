import * as v from 'valibot';
import { optionalText, requiredText } from '../fields';
import {
  VERIFICATION_METHODS,
  VERIFICATION_STATUSES,
  VERIFICATION_TYPES,
  type VerificationMethod,
  type VerificationStatus,
  type VerificationType,
} from '../verification';
import { ADMIN_MESSAGES } from './constants';
import {
  RANGE_MESSAGE,
  adminPaging,
  queryDate,
  queryFlag,
  querySearch,
  rangeInOrder,
  uuidQuery,
} from './fields';

/** Back office: the review queue. */

export const adminVerificationListQuery = v.pipe(
  v.object({
    ...adminPaging(),
    status: v.optional(
      v.picklist(VERIFICATION_STATUSES, `status must be one of ${VERIFICATION_STATUSES.join(', ')}`),
    ),
    type: v.optional(v.picklist(VERIFICATION_TYPES, `type must be one of ${VERIFICATION_TYPES.join(', ')}`)),
    method: v.optional(
      v.picklist(VERIFICATION_METHODS, `method must be one of ${VERIFICATION_METHODS.join(', ')}`),
    ),
    needs_review: queryFlag('needs_review'),
    user_id: uuidQuery('user_id'),
    search: querySearch,
    start_date: queryDate('start_date'),
    end_date: queryDate('end_date', { endOfDay: true }),
  }),
  v.check((input) => rangeInOrder(input), RANGE_MESSAGE),
);
export type AdminVerificationListQuery = v.InferInput<typeof adminVerificationListQuery>;

export const adminApproveVerificationBody = v.object({
  reviewer_notes: requiredText(ADMIN_MESSAGES.reviewerNotesRequired, 2000),
  confidence_override: v.optional(
    v.nullable(
      v.pipe(
        v.number(ADMIN_MESSAGES.confidenceRange),
        v.minValue(0, ADMIN_MESSAGES.confidenceRange),
        v.maxValue(1, ADMIN_MESSAGES.confidenceRange),
        v.check(
          (value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-9,
          ADMIN_MESSAGES.confidenceStep,
        ),
      ),
    ),
  ),
});
export type AdminApproveVerificationBody = v.InferInput<typeof adminApproveVerificationBody>;

/**
 * One reason is enough to reject (issue 25 item 11): it is what the user is told. Internal notes are optional
 * (spec 02 §5 asked for both; a reviewer then typed the same sentence twice).
 */
export const adminRejectVerificationBody = v.object({
  rejection_reason: requiredText(ADMIN_MESSAGES.rejectionReasonRequired, 500),
  reviewer_notes: optionalText(2000),
});
export type AdminRejectVerificationBody = v.InferInput<typeof adminRejectVerificationBody>;

export const adminRetriggerVerificationBody = v.object({
  /** "Force reprocess (bypass cache)": analyse again even when a result for the same media exists. */
  force_reprocess: v.optional(v.boolean('force_reprocess must be true or false'), false),
  notes: optionalText(2000),
});
export type AdminRetriggerVerificationBody = v.InferInput<typeof adminRetriggerVerificationBody>;

export interface ReviewNote {
  timestamp: string;
  note: string;
  admin_user_id?: string | null;
  action?: string;
}

export interface AdminVerificationMedia {
  id: string;
  content_type: string;
  byte_length: number;
  purge_after: string;
  /** GET this path (admin token) to see the media, decrypted on request and never cached. */
  url: string;
}

/** spec 02 §3 "Verification". */
export interface AdminVerification {
  id: string;
  user_id: string;
  user_email: string | null;
  verification_type: VerificationType;
  verification_method: VerificationMethod;
  status: VerificationStatus;
  confidence_score: number | null;
  needs_manual_review: boolean;
  age_threshold: number | null;
  message: string | null;
  partner_id: string | null;
  site_id: string | null;
  submitted_at: string;
  reviewed_at: string | null;
  reviewed_by: string | null;
  has_media: boolean;
  /**
   * Whether Retrigger can run the analysis again (issue 25 item 5): a document case that is not decided for good
   * (pending, failed or rejected) whose document is still kept. Camera and card checks cannot be re-run.
   */
  can_retrigger: boolean;
  /**
   * What `confidence_score` measures, or why there is none: for a document, how well the machine-readable zone was
   * read, and no figure while the holder is not confirmed (no portrait, no live video, a face that does not match).
   */
  confidence_note: string | null;
}

export interface AdminVerificationDetail extends AdminVerification {
  document_analysis: Record<string, unknown> | null;
  result_details: Record<string, unknown>;
  review_notes: ReviewNote[];
  media: AdminVerificationMedia[];
}

export interface AdminVerificationList {
  verifications: AdminVerification[];
  total_count: number;
}

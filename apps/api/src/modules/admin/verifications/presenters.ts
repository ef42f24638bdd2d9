import type {
  AdminVerification,
  AdminVerificationDetail,
  ReviewNote,
  VerificationMethod,
  VerificationStatus,
  VerificationType,
} from '@attestly/contracts';
import { toBool, toDate } from '../../../db/rows';
import { iso } from '../common';

export interface VerificationRow {
  id: string;
  user_id: string;
  user_email: string | null;
  verification_type: string;
  verification_method: string;
  status: string;
  confidence_score: number | string | null;
  needs_manual_review: unknown;
  age_threshold: number | string | null;
  message: string | null;
  partner_id: string | null;
  site_id: string | null;
  created_at: unknown;
  reviewed_at: unknown;
  reviewed_by: string | null;
  expires_at: unknown;
  has_media: unknown;
}

/** An approval whose validity has run out reads as expired (as the user sees it, verification/presenters.ts). */
function displayStatus(row: VerificationRow, now: Date): VerificationStatus {
  const expires = toDate(row.expires_at);
  if (row.status === 'approved' && expires && expires <= now) return 'expired';
  return row.status as VerificationStatus;
}

export function presentAdminVerification(row: VerificationRow, now: Date): AdminVerification {
  return {
    id: row.id,
    user_id: row.user_id,
    user_email: row.user_email?.endsWith('@deleted.invalid') ? null : (row.user_email ?? null),
    verification_type: row.verification_type as VerificationType,
    verification_method: row.verification_method as VerificationMethod,
    status: displayStatus(row, now),
    confidence_score: row.confidence_score === null ? null : Number(row.confidence_score),
    needs_manual_review: toBool(row.needs_manual_review),
    age_threshold: row.age_threshold === null ? null : Number(row.age_threshold),
    message: row.message,
    partner_id: row.partner_id,
    site_id: row.site_id,
    submitted_at: iso(toDate(row.created_at)) as string,
    reviewed_at: iso(toDate(row.reviewed_at)),
    reviewed_by: row.reviewed_by,
    has_media: toBool(row.has_media) || Number(row.has_media) > 0,
  };
}

/** Internal bookkeeping (the facts an approval would apply) is shown to reviewers: it is what they approve. */
export function presentAdminVerificationDetail(
  row: VerificationRow,
  extra: {
    document_analysis: unknown;
    result_details: unknown;
    review_notes: unknown;
    media: Array<{ id: string; content_type: string; byte_length: number; purge_after: Date }>;
  },
  now: Date,
): AdminVerificationDetail {
  const parse = (value: unknown) => (typeof value === 'string' ? (JSON.parse(value) as unknown) : value);
  const notes = (parse(extra.review_notes) as Array<ReviewNote & { author?: string }> | null) ?? [];
  return {
    ...presentAdminVerification({ ...row, has_media: extra.media.length }, now),
    document_analysis: (parse(extra.document_analysis) as Record<string, unknown> | null) ?? null,
    result_details: (parse(extra.result_details) as Record<string, unknown> | null) ?? {},
    review_notes: notes.map((note) => ({
      timestamp: note.timestamp,
      note: note.note,
      admin_user_id: note.author && note.author !== 'system' ? note.author : null,
    })),
    media: extra.media.map((media) => ({
      id: media.id,
      content_type: media.content_type,
      byte_length: media.byte_length,
      purge_after: media.purge_after.toISOString(),
      url: `/api/v1/admin/verifications/${row.id}/media/${media.id}`,
    })),
  };
}

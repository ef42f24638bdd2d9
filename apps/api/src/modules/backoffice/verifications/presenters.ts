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
  document_media: unknown;
  /** The document's holder check: true, false (1/0 on SQLite, text on PostgreSQL) or null (none made). */
  holder_bound: unknown;
}

const RETRIGGERABLE = new Set(['pending', 'failed', 'rejected']);

/** The holder check's answer, whatever the database made of the JSON boolean. */
function holderBound(value: unknown): boolean | null {
  if (value === null || value === undefined) return null;
  return value === true || value === 1 || value === '1' || value === 'true';
}

/** What the confidence figure measures (contracts AdminVerification.confidence_note). */
function confidenceOf(row: VerificationRow): { score: number | null; note: string | null } {
  const score = row.confidence_score === null ? null : Number(row.confidence_score);
  switch (row.verification_method) {
    case 'document':
      // A clean read of the machine-readable zone says nothing about who holds the document.
      if (holderBound(row.holder_bound) === false)
        return { score: null, note: 'Holder not confirmed: no figure until a person checks the portrait' };
      return { score, note: score === null ? null : 'How well the machine-readable zone was read' };
    case 'facial_recognition':
      return { score, note: score === null ? null : 'Confidence of the age estimate' };
    case 'ip_geolocation':
      return { score, note: score === null ? null : 'Agreement of the address with the declared location' };
    default:
      return { score, note: null };
  }
}

/** An approval whose validity has run out reads as expired (as the user sees it, verification/presenters.ts). */
function displayStatus(row: VerificationRow, now: Date): VerificationStatus {
  const expires = toDate(row.expires_at);
  if (row.status === 'approved' && expires && expires <= now) return 'expired';
  return row.status as VerificationStatus;
}

export function presentAdminVerification(row: VerificationRow, now: Date): AdminVerification {
  const confidence = confidenceOf(row);
  const userGone = row.user_email?.endsWith('@deleted.invalid') ?? true;
  return {
    id: row.id,
    user_id: row.user_id,
    user_email: row.user_email?.endsWith('@deleted.invalid') ? null : (row.user_email ?? null),
    verification_type: row.verification_type as VerificationType,
    verification_method: row.verification_method as VerificationMethod,
    status: displayStatus(row, now),
    confidence_score: confidence.score,
    confidence_note: confidence.note,
    needs_manual_review: toBool(row.needs_manual_review),
    age_threshold: row.age_threshold === null ? null : Number(row.age_threshold),
    message: row.message,
    partner_id: row.partner_id,
    site_id: row.site_id,
    submitted_at: iso(toDate(row.created_at)) as string,
    reviewed_at: iso(toDate(row.reviewed_at)),
    reviewed_by: row.reviewed_by,
    has_media: toBool(row.has_media) || Number(row.has_media) > 0,
    // What the server's retrigger accepts (service.ts): a document case not decided for good, its document kept.
    can_retrigger:
      row.verification_method === 'document' &&
      RETRIGGERABLE.has(row.status) &&
      Number(row.document_media) > 0 &&
      !userGone,
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
    ...presentAdminVerification(
      {
        ...row,
        has_media: extra.media.length,
        document_media: extra.media.filter((media) => !media.content_type.startsWith('video/')).length,
      },
      now,
    ),
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

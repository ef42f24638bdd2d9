import type { DocumentReading, HolderCheck } from '@attestly/models';
import type {
  AgeThreshold,
  DocumentAnalysis,
  DocumentType,
  ReviewerDocumentAnalysis,
  VerificationStatus,
} from '@attestly/contracts';
import type { Config } from '../../../config';
import type { Database } from '../../../db/database';
import { deriveKey, hmacSha256 } from '../../../lib/crypto';
import { reuseReason } from './document-reuse';

/**
 * The rules that decide a document (issue 14), one owner for the user's upload (document.ts) and the back office's
 * re-analysis of a kept document (backoffice/verifications retrigger): the analysis recorded, the holder binding and
 * its problems, the decision, and the keyed number that tells one document from another.
 */

export const AUTHENTICITY_NOTE =
  'Not checked: the machine-readable zone is internally consistent, but security features (chip, hologram, ' +
  'UV print) cannot be checked from an image, so a well-made forgery would pass this step.';

/** Whole years between an ISO birth date and `now` (UTC). */
export function ageOn(isoBirth: string, now: Date): number {
  const [y, m, d] = isoBirth.split('-').map(Number) as [number, number, number];
  let age = now.getUTCFullYear() - y;
  const month = now.getUTCMonth() + 1;
  if (month < m || (month === m && now.getUTCDate() < d)) age--;
  return age;
}

/**
 * Builds the spec 02 §3 document analysis from the engine's MRZ reading. Age and expiry are recomputed with the
 * injected clock so they agree with the rest of the verification (and with tests that move time).
 */
export function documentAnalysis(
  reading: DocumentReading,
  upload: { documentType: DocumentType; threshold: AgeThreshold },
  now: Date,
): DocumentAnalysis {
  const today = now.toISOString().slice(0, 10);
  const age = reading.date_of_birth ? ageOn(reading.date_of_birth, now) : null;
  return {
    document_type: upload.documentType,
    mrz_document_code: reading.document_type,
    mrz_format: reading.mrz_format,
    // ICAO 9303 state codes (three letters, 'D' for Germany), as printed in the MRZ.
    country_detected: reading.issuing_state,
    state_detected: null,
    nationality: reading.nationality,
    format_valid: reading.format_valid,
    check_digits_valid: reading.check_digits_valid,
    not_expired: reading.expiry_date !== null && reading.expiry_date >= today,
    expiry_date: reading.expiry_date,
    authentic: null,
    authenticity_note: AUTHENTICITY_NOTE,
    date_of_birth: reading.date_of_birth,
    calculated_age: age,
    age_threshold: upload.threshold,
    threshold_met: age !== null && age >= upload.threshold,
    document_number_last4: reading.document_number_last4,
    read_confidence: reading.confidence,
    reasons: reading.reasons,
  };
}

export interface DocumentOutcome {
  status: VerificationStatus;
  needsReview: boolean;
  message: string;
  reason: string;
}

/**
 * What ties a document to the person submitting it (issue 14): the portrait on the document, a live challenge
 * video recorded in the same flow, their face match, the printed fields against the MRZ and whether the document
 * already proves another account. Absent (e.g. the back office re-reading a kept image) → not bound → review.
 */
export interface HolderBinding {
  holder: HolderCheck | null;
  /** Other accounts this document (keyed hash of its number) is proving or waiting to prove. */
  otherAccounts: number;
}

export const BOUND_REVIEW_MESSAGE =
  'Your document was read, but we could not confirm automatically that it belongs to you, so a reviewer will check it.';

/** Reasons, for the reviewer, why a document with a clean MRZ is not bound to its holder; empty when it is. */
export function bindingProblems(reading: DocumentReading, binding: HolderBinding | undefined): string[] {
  const problems: string[] = [];
  const holder = binding?.holder ?? null;
  if (!holder) {
    problems.push('no live video of the holder was recorded with the document');
  } else {
    if (!holder.portrait.found) {
      problems.push(`no portrait face found on the document (${holder.portrait.problem ?? 'not detected'})`);
    }
    if (!holder.video) {
      problems.push(`the live video could not be used: ${holder.video_problem?.message ?? 'unreadable'}`);
    } else if (!holder.video.is_live) {
      problems.push(
        `the live video did not pass the liveness challenge (${holder.video.video_liveness.reasons.join(', ') || 'not live'})`,
      );
    }
    if (holder.face_match && !holder.face_match.match) {
      problems.push(
        `the face in the video does not match the document portrait (similarity ${holder.face_match.similarity} < ${holder.face_match.threshold})`,
      );
    } else if (!holder.face_match && holder.portrait.found && holder.video) {
      problems.push('the portrait could not be compared with the video');
    }
  }
  if (reading.printed) problems.push(...reading.printed.conflicts);
  if (binding && binding.otherAccounts > 0) {
    problems.push(reuseReason(binding.otherAccounts));
  }
  if (!reading.document_key) problems.push('the document number could not be read');
  return problems;
}

/**
 * The decision on a document, for an upload and the back office's retrigger alike. A claim is approved automatically only when the MRZ reads cleanly, the document is valid and shows the age, AND the document
 * is bound to its holder (bindingProblems is empty); everything short of that goes to a reviewer with the reasons.
 */
export function decideDocument(
  analysis: DocumentAnalysis,
  reading: DocumentReading,
  verificationType: 'age' | 'identity',
  binding?: HolderBinding,
): DocumentOutcome {
  const clean =
    analysis.format_valid &&
    analysis.check_digits_valid &&
    !reading.needs_manual_review &&
    analysis.calculated_age !== null;
  if (!clean) {
    return {
      status: 'pending',
      needsReview: true,
      message:
        'We could not read your document automatically, so a reviewer will check it. ' +
        'You can also upload a sharper photo of the page with the two lines of letters and chevrons (<<<) at the bottom.',
      reason: `Automatic reading unclear: ${reading.reasons.join('; ') || 'low confidence'}`,
    };
  }
  if (!analysis.not_expired) {
    return {
      status: 'rejected',
      needsReview: false,
      message: 'This document has expired. Please upload a document that is still valid.',
      reason: 'document expired',
    };
  }
  if (verificationType === 'age' && !analysis.threshold_met) {
    return {
      status: 'rejected',
      needsReview: false,
      message: `The document shows that you are under ${analysis.age_threshold}.`,
      reason: 'below threshold',
    };
  }
  const problems = bindingProblems(reading, binding);
  if (problems.length) {
    return {
      status: 'pending',
      needsReview: true,
      message: BOUND_REVIEW_MESSAGE,
      reason: `Not bound to the holder: ${problems.join('; ')}`,
    };
  }
  if (verificationType === 'identity') {
    return {
      status: 'approved',
      needsReview: false,
      message: 'Your identity is verified: your document is valid and matches your live video.',
      reason: 'machine-readable zone valid; portrait matches the live video',
    };
  }
  return {
    status: 'approved',
    needsReview: false,
    message: `Your age is verified from your document: ${analysis.age_threshold}+.`,
    reason: 'machine-readable zone valid; portrait matches the live video',
  };
}

/** The keyed hash of a document's state, type and number: the same document reads the same on this installation only. */
export function documentFingerprint(masterKey: Buffer, documentKey: string): string {
  return hmacSha256(deriveKey(masterKey, 'document-number'), documentKey);
}

/**
 * The binding facts as the analysis records them for the user and the reviewer, from an upload or the back office's
 * re-analysis alike (never the document number or face descriptors).
 */
export function holderSummary(
  reading: DocumentReading,
  binding: HolderBinding,
  problems: string[],
): NonNullable<ReviewerDocumentAnalysis['holder_binding']> {
  const h = binding.holder;
  return {
    portrait_found: h?.portrait.found ?? false,
    portrait_problem: h?.portrait.problem ?? null,
    live_video: !h ? 'missing' : !h.video ? 'unusable' : h.video.is_live ? 'passed' : 'failed',
    liveness_reasons: h?.video?.video_liveness.reasons ?? [],
    face_match: h?.face_match
      ? { similarity: h.face_match.similarity, threshold: h.face_match.threshold, match: h.face_match.match }
      : null,
    printed_fields: reading.printed
      ? {
          date_of_birth: reading.printed.date_of_birth,
          expiry_date: reading.printed.expiry_date,
          name: reading.printed.name,
        }
      : null,
    document_used_by_other_accounts: binding.otherAccounts,
    bound: problems.length === 0,
    review_reasons: problems,
  };
}

/**
 * Other accounts this document proves (document_claims) or is waiting to prove (approved or pending document cases
 * with the same keyed number). When the document already proves this account, others' attempts do not hold its
 * owner back (they went to review).
 */
export async function otherAccounts(db: Database, userId: string, fingerprint: string): Promise<number> {
  const claims = await db.read<{ user_id: string }>(
    'SELECT user_id FROM document_claims WHERE fingerprint = :fingerprint',
    { fingerprint },
  );
  if (claims.some((claim) => claim.user_id === userId)) return 0;
  const [waiting] = await db.read<{ n: number | string }>(
    `SELECT COUNT(DISTINCT user_id) AS n FROM verifications
      WHERE subject_fingerprint = :fingerprint AND verification_method = 'document'
        AND status IN ('approved', 'pending') AND user_id <> :userId`,
    { fingerprint, userId },
  );
  return Math.max(claims.length, Number(waiting?.n ?? 0));
}

/** A document read and decided: what the analysis records, whom the document is bound to, and the outcome. */
export interface DocumentAssessment {
  reading: DocumentReading;
  verificationType: 'age' | 'identity';
  analysis: DocumentAnalysis;
  /** The keyed hash of the document's number; null when the number could not be read. */
  fingerprint: string | null;
  binding: HolderBinding;
  /** Why the document is not bound to its holder, for the reviewer; empty when it is. */
  problems: string[];
  outcome: DocumentOutcome;
}

/**
 * Decides a document read by the engine, for the user's upload and the back office's re-analysis alike: the
 * analysis with today's clock, the keyed number and the other accounts it proves, the holder binding and the outcome.
 */
export async function assessDocument(
  { db, config }: { db: Database; config: Pick<Config, 'masterKey'> },
  input: {
    userId: string;
    reading: DocumentReading;
    holder: HolderCheck | null;
    documentType: DocumentType;
    threshold: AgeThreshold;
    verificationType: 'age' | 'identity';
  },
  now: Date,
): Promise<DocumentAssessment> {
  const { reading, verificationType } = input;
  const fingerprint = reading.document_key
    ? documentFingerprint(config.masterKey, reading.document_key)
    : null;
  const binding: HolderBinding = {
    holder: input.holder,
    otherAccounts: fingerprint ? await otherAccounts(db, input.userId, fingerprint) : 0,
  };
  const analysis = documentAnalysis(reading, input, now);
  return {
    reading,
    verificationType,
    analysis,
    fingerprint,
    binding,
    problems: bindingProblems(reading, binding),
    outcome: decideDocument(analysis, reading, verificationType, binding),
  };
}

/**
 * The same document decided again after another account claimed it between the check and the approval (the claim
 * is race-safe, the check before it is not): it now proves another account, so a person decides.
 */
export function claimedElsewhere(assessed: DocumentAssessment): DocumentAssessment {
  const { reading, analysis, verificationType } = assessed;
  const binding = { ...assessed.binding, otherAccounts: Math.max(1, assessed.binding.otherAccounts) };
  return {
    ...assessed,
    binding,
    problems: bindingProblems(reading, binding),
    outcome: decideDocument(analysis, reading, verificationType, binding),
  };
}

/** The analysis as the case records it: with the holder binding the reviewer reads (`holderSummary`). */
export function recordedAnalysis(assessed: DocumentAssessment): ReviewerDocumentAnalysis {
  const { analysis, reading, binding, problems } = assessed;
  return { ...analysis, holder_binding: holderSummary(reading, binding, problems) };
}

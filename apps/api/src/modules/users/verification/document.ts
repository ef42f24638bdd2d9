import type { DocumentReading, HolderCheck } from '@attestly/models';
import { Op, QueryTypes } from 'sequelize';
import type {
  AgeThreshold,
  DocumentAnalysis,
  DocumentType,
  ReviewerDocumentAnalysis,
  VerificationStatus,
  VerificationSummary,
} from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import { deriveKey, hmacSha256 } from '../../../lib/crypto';
import type { ChallengeService } from './challenge';
import { ownerDocumentAnalysis, reuseReason } from './document-reuse';
import { presentVerification } from './presenters';
import { DocumentClaimedError, type VerificationOrigin, type VerificationService } from './service';
import { requireEngine, runAnalysis } from './vision';

export interface DocumentUpload {
  bytes: Uint8Array;
  mime: string;
  /** The live video recorded in the same flow (5 s), answering the challenge named by challengeId. */
  video?: { bytes: Uint8Array; mime: string } | null;
  /** The liveness challenge the video answers (challenge.ts); required with a video. */
  challengeId?: string;
  documentType: DocumentType;
  threshold: AgeThreshold;
  verificationType: 'age' | 'identity';
}

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
  upload: Pick<DocumentUpload, 'documentType' | 'threshold'>,
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
 * The decision on a document (exported for the back office's retrigger, modules/backoffice/verifications). A claim is
 * approved automatically only when the MRZ reads cleanly, the document is valid and shows the age, AND the document
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

/** The binding facts as the analysis shows them to the user and the reviewer (never the number or descriptors). */
function holderSummary(reading: DocumentReading, binding: HolderBinding, problems: string[]) {
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
  } satisfies ReviewerDocumentAnalysis['holder_binding'];
}

/**
 * Document verification (DESIGN.md §5, issue 14): reads the ICAO 9303 MRZ on the box, validates check digits and
 * expiry, computes the age, and binds the document to its holder with the live challenge video sent in the same
 * request (portrait found, liveness passed, faces match, printed fields agree, document not proving another
 * account). Bound, valid documents are decided at once and the media dropped; everything else waits for a reviewer
 * with the reasons recorded, and only then are the document and the video kept — encrypted — until the review or
 * the retention limit.
 */
export function createDocumentVerification(
  deps: Deps,
  verifications: VerificationService,
  challenges: ChallengeService,
) {
  const { db, config } = deps;

  /**
   * Other accounts this document proves (document_claims) or is waiting to prove (pending document rows). When the
   * document already proves this account, others' attempts do not hold its owner back (they went to review).
   */
  async function otherAccounts(userId: string, fingerprint: string): Promise<number> {
    const claims = (await db.sequelize.query(
      'SELECT user_id FROM document_claims WHERE fingerprint = :fingerprint',
      { replacements: { fingerprint }, type: QueryTypes.SELECT },
    )) as { user_id: string }[];
    if (claims.some((c) => c.user_id === userId)) return 0;
    const rows = await db.models.Verification.count({
      where: {
        subject_fingerprint: fingerprint,
        verification_method: 'document',
        status: { [Op.in]: ['approved', 'pending'] },
        user_id: { [Op.ne]: userId },
      },
      distinct: true,
      col: 'user_id',
    });
    return Math.max(claims.length, rows);
  }

  async function verify(
    userId: string,
    upload: DocumentUpload,
    origin: VerificationOrigin,
  ): Promise<{ verification: VerificationSummary; document_analysis: DocumentAnalysis; message: string }> {
    const engine = requireEngine(deps.vision, 'Document verification');
    const video = upload.video ?? null;
    // The live video answers a challenge spent before the analysis (issue 23 item 1); no video, no challenge.
    const challenge = video ? await challenges.consume(userId, upload.challengeId ?? '') : null;
    const [reading, holder] = await Promise.all([
      runAnalysis(() => engine.readDocument(upload.bytes, upload.mime)),
      video && challenge
        ? runAnalysis(() =>
            engine.checkHolder(upload.bytes, video.bytes, { thresholds: [upload.threshold], challenge }),
          )
        : Promise.resolve(null),
    ]);
    const now = deps.clock.now();
    const fingerprint = reading.document_key
      ? documentFingerprint(config.masterKey, reading.document_key)
      : null;
    const binding: HolderBinding = {
      holder,
      otherAccounts: fingerprint ? await otherAccounts(userId, fingerprint) : 0,
    };
    const analysis = documentAnalysis(reading, upload, now);
    let outcome = decideDocument(analysis, reading, upload.verificationType, binding);
    let problems = bindingProblems(reading, binding);
    const media = [
      { bytes: upload.bytes, contentType: upload.mime },
      ...(video ? [{ bytes: video.bytes, contentType: video.mime }] : []),
    ];
    const proves =
      upload.verificationType === 'identity'
        ? {
            identity: true,
            ...(analysis.threshold_met && analysis.calculated_age !== null
              ? { minAge: analysis.calculated_age }
              : {}),
          }
        : analysis.calculated_age !== null
          ? { minAge: analysis.calculated_age }
          : { minAge: upload.threshold };
    const save = () => {
      const withBinding: ReviewerDocumentAnalysis = {
        ...analysis,
        holder_binding: holderSummary(reading, binding, problems),
      };
      // Authenticity is unchecked (AUTHENTICITY_NOTE), so even a perfect read is not worth more than 0.8.
      const confidence =
        outcome.status === 'approved' ? Math.min(0.8, reading.confidence) : reading.confidence;
      return verifications
        .record(
          {
            userId,
            type: upload.verificationType,
            method: 'document',
            status: outcome.status,
            confidence,
            ageThreshold: upload.threshold,
            needsReview: outcome.needsReview,
            message: outcome.message,
            details: {
              ocr_passes: reading.ocr_passes,
              decision: outcome.reason,
              media_stored: outcome.needsReview,
              live_video_sent: !!video,
              ...(holder?.video
                ? {
                    video_liveness: holder.video.video_liveness,
                    video_estimated_age: holder.video.age,
                  }
                : {}),
            },
            documentAnalysis: withBinding,
            fingerprint,
            proves,
            media: outcome.needsReview ? media : null,
            systemNote: outcome.needsReview ? outcome.reason : undefined,
            claim: fingerprint && outcome.status === 'approved' ? { fingerprint } : null,
          },
          origin,
        )
        .then((row) => ({ row, withBinding }));
    };
    let saved;
    try {
      saved = await save();
    } catch (error) {
      if (!(error instanceof DocumentClaimedError)) throw error;
      // Another account claimed this document between the check and the approval: a person decides.
      binding.otherAccounts = Math.max(1, binding.otherAccounts);
      problems = bindingProblems(reading, binding);
      outcome = decideDocument(analysis, reading, upload.verificationType, binding);
      saved = await save();
    }
    return {
      verification: presentVerification(saved.row, now),
      // The owner's view: the document's reuse on other accounts is for reviewers only (document-reuse.ts).
      document_analysis: ownerDocumentAnalysis(saved.withBinding),
      message: outcome.message,
    };
  }
  return { verify };
}

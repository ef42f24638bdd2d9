import type { DocumentAnalysis, DocumentType, AgeThreshold, VerificationSummary } from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import type { ChallengeService } from './challenge';
import { assessDocument, claimedElsewhere, recordedAnalysis } from './document-decision';
import { ownerDocumentAnalysis } from './document-reuse';
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
    let assessed = await assessDocument(
      deps,
      {
        userId,
        reading,
        holder,
        documentType: upload.documentType,
        threshold: upload.threshold,
        verificationType: upload.verificationType,
      },
      now,
    );
    const { analysis, fingerprint } = assessed;
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
      const { outcome } = assessed;
      const withBinding = recordedAnalysis(assessed);
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
            message: assessed.outcome.message,
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
      assessed = claimedElsewhere(assessed);
      saved = await save();
    }
    return {
      verification: presentVerification(saved.row, now),
      // The owner's view: the document's reuse on other accounts is for reviewers only (document-reuse.ts).
      document_analysis: ownerDocumentAnalysis(saved.withBinding),
      message: assessed.outcome.message,
    };
  }
  return { verify };
}

import type { DocumentReading } from '@attestly/models';
import type {
  AgeThreshold,
  DocumentAnalysis,
  DocumentType,
  VerificationStatus,
  VerificationSummary,
} from '@attestly/contracts';
import type { Deps } from '../../deps';
import type { RequestOrigin } from '../sessions/service';
import { presentVerification } from './presenters';
import type { VerificationService } from './service';
import { requireEngine, runAnalysis } from './vision';

export interface DocumentUpload {
  bytes: Uint8Array;
  mime: string;
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

/** Exported for the back office's retrigger (re-analysis of kept media, modules/admin/verifications). */
export function decideDocument(
  analysis: DocumentAnalysis,
  reading: DocumentReading,
  verificationType: 'age' | 'identity',
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
  if (verificationType === 'identity') {
    // No on-box face match between the portrait and the holder exists yet, so identity always goes to a person.
    return {
      status: 'pending',
      needsReview: true,
      message: 'Your document was read successfully. A reviewer will confirm your identity shortly.',
      reason:
        'Identity verification needs a reviewer to compare the document portrait with the account holder',
    };
  }
  if (!analysis.threshold_met) {
    return {
      status: 'rejected',
      needsReview: false,
      message: `The document shows that you are under ${analysis.age_threshold}.`,
      reason: 'below threshold',
    };
  }
  return {
    status: 'approved',
    needsReview: false,
    message: `Your age is verified from your document: ${analysis.age_threshold}+.`,
    reason: 'machine-readable zone valid',
  };
}

/**
 * Document verification (DESIGN.md §5): reads the ICAO 9303 MRZ on the box, validates check digits and expiry,
 * computes the age. Clean reads are decided at once and the image is dropped; unclear reads and identity checks
 * wait for a reviewer, and only then is the image kept — encrypted — until the review or the retention limit.
 */
export function createDocumentVerification(deps: Deps, verifications: VerificationService) {
  async function verify(
    userId: string,
    upload: DocumentUpload,
    origin: RequestOrigin,
  ): Promise<{ verification: VerificationSummary; document_analysis: DocumentAnalysis; message: string }> {
    const engine = requireEngine(deps.vision, 'Document verification');
    const reading = await runAnalysis(() => engine.readDocument(upload.bytes, upload.mime));
    const now = deps.clock.now();
    const analysis = documentAnalysis(reading, upload, now);
    const outcome = decideDocument(analysis, reading, upload.verificationType);
    // Authenticity is unchecked (AUTHENTICITY_NOTE), so even a perfect read is not worth more than 0.8.
    const confidence = outcome.status === 'approved' ? Math.min(0.8, reading.confidence) : reading.confidence;
    const row = await verifications.record(
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
        },
        documentAnalysis: analysis,
        proves:
          upload.verificationType === 'identity'
            ? {
                identity: true,
                ...(analysis.threshold_met && analysis.calculated_age !== null
                  ? { minAge: analysis.calculated_age }
                  : {}),
              }
            : analysis.calculated_age !== null
              ? { minAge: analysis.calculated_age }
              : { minAge: upload.threshold },
        media: outcome.needsReview ? { bytes: upload.bytes, contentType: upload.mime } : null,
        systemNote: outcome.needsReview ? outcome.reason : undefined,
      },
      origin,
    );
    return {
      verification: presentVerification(row, now),
      document_analysis: analysis,
      message: outcome.message,
    };
  }
  return { verify };
}

import * as v from 'valibot';
import { requiredText } from './fields';

/** DESIGN.md §5 and spec 02 §4: what a verification row can be. */
export const VERIFICATION_TYPES = ['age', 'location', 'identity'] as const;
export type VerificationType = (typeof VERIFICATION_TYPES)[number];

export const VERIFICATION_METHODS = [
  'facial_recognition',
  'document',
  'credit_card',
  'ip_geolocation',
] as const;
export type VerificationMethod = (typeof VERIFICATION_METHODS)[number];

export const VERIFICATION_STATUSES = ['pending', 'approved', 'rejected', 'expired', 'failed'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/** The age thresholds partners can ask for (the AGE_NN scopes). */
export const AGE_THRESHOLDS = [12, 16, 18, 21] as const;
export type AgeThreshold = (typeof AGE_THRESHOLDS)[number];
export const DEFAULT_AGE_THRESHOLD: AgeThreshold = 18;

export const DOCUMENT_TYPES = [
  'passport',
  'id_card',
  'drivers_license',
  'residence_permit',
  'other',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** Upload limits of the verification screens (spec 01 §5, §9). */
export const VERIFICATION_LIMITS = {
  /** A 640×480 JPEG at quality 0.8 is ~60 KB; 5 MB leaves room for phone cameras. */
  photoBytes: 5 * 1024 * 1024,
  documentBytes: 10 * 1024 * 1024,
  documentTooLargeMessage: 'File size must be less than 10MB',
  documentRequiredMessage: 'Please select a document to upload',
  /** The live challenge video sent with a document (field `selfie_video`). */
  selfieVideoTypeMessage: 'The live video must be a WebM or MP4 recording',
  documentTypeMessage: 'Please upload an image (JPEG, PNG or WebP) or a PDF',
} as const;

const thresholdField = v.optional(
  v.pipe(
    v.union([v.string(), v.number()], 'age_threshold must be one of 12, 16, 18, 21'),
    v.transform(Number),
    v.check(
      (value) => (AGE_THRESHOLDS as readonly number[]).includes(value),
      'age_threshold must be one of 12, 16, 18, 21',
    ),
    v.transform((value) => value as AgeThreshold),
  ),
  String(DEFAULT_AGE_THRESHOLD),
);

/**
 * The liveness challenge a video must answer (issue 23 item 1): issued by `POST /age-verification/challenges`,
 * single-use, bound to the user, expiring after `ttlSeconds`. Its steps come in random order and direction, each
 * with a timing window inside a recording of `recordingSeconds`; a motion counts up to `toleranceSeconds` outside
 * its window (the offset between the prompt schedule and the recording's first frame, plus reaction time).
 */
export const LIVENESS_CHALLENGE = {
  recordingSeconds: 5,
  ttlSeconds: 60,
  toleranceSeconds: 0.5,
  missingMessage:
    'A video must answer a fresh liveness challenge: request one from POST /api/v1/age-verification/challenges and send its challenge_id with the video.',
  unknownMessage:
    'This liveness challenge is not valid for your account. Please start the video check again.',
  expiredMessage:
    'This liveness challenge has expired (a challenge lasts 60 seconds). Please start the video check again.',
  usedMessage: 'This liveness challenge has already been used. Please start the video check again.',
} as const;

export const CHALLENGE_ACTIONS = ['turn_left', 'turn_right', 'blink'] as const;
export type ChallengeAction = (typeof CHALLENGE_ACTIONS)[number];

/** What the camera screen shows for each step. */
export const CHALLENGE_PROMPTS: Record<ChallengeAction, string> = {
  turn_left: 'Turn your head to the left',
  turn_right: 'Turn your head to the right',
  blink: 'Blink',
};

const challengeIdField = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.check(
      (value) =>
        value === '' || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value),
      'challenge_id is not a liveness challenge id',
    ),
  ),
  '',
);

/** Text fields of `POST /age-verification/verify-age` (spec 01 §7 "Age verification by camera"). */
export const ageVerificationFields = v.object({
  media_type: v.optional(v.picklist(['image', 'video'], 'media_type must be image or video'), '' as 'image'),
  age_threshold: thresholdField,
  /** Required with a video (LIVENESS_CHALLENGE); photos need none. */
  challenge_id: challengeIdField,
});

/** Text fields of `POST /users/verify/document`. `verification_type` identity sends the case to a reviewer. */
export const documentVerificationFields = v.object({
  document_type: v.optional(
    v.picklist(DOCUMENT_TYPES, `document_type must be one of ${DOCUMENT_TYPES.join(', ')}`),
    'passport',
  ),
  age_threshold: thresholdField,
  verification_type: v.optional(
    v.picklist(['age', 'identity'], 'verification_type must be age or identity'),
    'age',
  ),
  /** Required with a `selfie_video` (LIVENESS_CHALLENGE). */
  challenge_id: challengeIdField,
});

/**
 * `POST /users/verify/credit-card` (and `/users/verify` with method credit_card): the Stripe SetupIntent that
 * Stripe.js confirmed in the browser. The card itself never reaches the appliance (issue 25 item 1).
 */
export const cardCheckBody = v.object({
  setup_intent_id: v.pipe(
    requiredText('setup_intent_id is required', 255),
    v.regex(/^seti_[A-Za-z0-9_]+$/, 'setup_intent_id is not a card check id'),
  ),
});
export type CardCheckBody = v.InferInput<typeof cardCheckBody>;

/** `POST /users/verify/credit-card/setup`: what Stripe.js needs to collect and confirm the card. */
export interface CardCheckStart {
  message: string;
  setup_intent_id: string;
  client_secret: string;
  publishable_key: string;
}

/** `POST /users/verify`: a method plus that method's fields (spec 01 §7). */
export const verifyBody = v.object({
  method: v.optional(
    v.picklist(
      [...VERIFICATION_METHODS, 'location'],
      `method must be one of ${[...VERIFICATION_METHODS, 'location'].join(', ')}`,
    ),
    '' as VerificationMethod,
  ),
});

// ---------------------------------------------------------------------------------------------------------------
// Answers.

/** spec 01 §3 "Age verification result" (video adds the frame fields). */
export interface AgeVerificationResult {
  age: number;
  confidence: number;
  is_live: boolean;
  verification_id: string;
  status: 'approved' | 'rejected';
  message: string;
  age_threshold: number;
  age_range: { min: number; max: number };
  extracted_data: Record<string, unknown>;
  frames_analyzed?: number;
  video_duration?: number;
  live_percentage?: number;
  video_liveness?: { passed: boolean; head_turn: boolean; blink: boolean; reasons: string[] };
  eye_measurements?: { baseline_ear: number; min_ear: number; ear_series: number[] };
}

/** spec 02 §3 "document analysis". `authentic` is null: no security feature of the document is checked on the box. */
export interface DocumentAnalysis {
  document_type: string;
  mrz_document_code: string | null;
  mrz_format: string | null;
  country_detected: string | null;
  state_detected: string | null;
  nationality: string | null;
  format_valid: boolean;
  check_digits_valid: boolean;
  not_expired: boolean;
  expiry_date: string | null;
  authentic: boolean | null;
  authenticity_note: string;
  date_of_birth: string | null;
  calculated_age: number | null;
  age_threshold: number;
  threshold_met: boolean;
  document_number_last4: string | null;
  read_confidence: number;
  reasons: string[];
  /**
   * Whether the document is bound to the person who sent it (issue 14): a portrait on the document, a live
   * challenge video in the same flow, their face match, the printed fields against the MRZ, and (for reviewers
   * only, ReviewerDocumentAnalysis) reuse of the same document on other accounts. `review_reasons` says why a
   * person must check it.
   */
  holder_binding?: {
    portrait_found: boolean;
    portrait_problem: string | null;
    live_video: 'passed' | 'failed' | 'missing' | 'unusable';
    liveness_reasons: string[];
    face_match: { similarity: number; threshold: number; match: boolean } | null;
    printed_fields: {
      date_of_birth: 'agrees' | 'conflicts' | 'unreadable';
      expiry_date: 'agrees' | 'conflicts' | 'unreadable';
      name: 'agrees' | 'unreadable';
    } | null;
    bound: boolean;
    review_reasons: string[];
  };
}

/**
 * A document reading as it is stored and as reviewers see it: the owner's view plus how many other accounts the
 * same document (keyed hash of its number) proves or waits to prove. That count, and the review reason naming it,
 * are for reviewers only (issue 21 item 13): the uploader, their export and their screens never see them.
 */
export interface ReviewerDocumentAnalysis extends Omit<DocumentAnalysis, 'holder_binding'> {
  holder_binding?: NonNullable<DocumentAnalysis['holder_binding']> & {
    document_used_by_other_accounts: number;
  };
}

/** A verification as its owner sees it. */
export interface VerificationSummary {
  id: string;
  verification_id: string;
  verification_type: VerificationType;
  verification_method: VerificationMethod;
  status: VerificationStatus;
  confidence_score: number | null;
  age_threshold: number | null;
  needs_manual_review: boolean;
  message: string | null;
  details: Record<string, unknown>;
  document_analysis: DocumentAnalysis | null;
  submitted_at: string;
  reviewed_at: string | null;
}

export interface VerificationStatusAnswer {
  overall: 'fully_verified' | 'partially_verified' | 'not_verified';
  age_verified: boolean;
  proven_min_age: number | null;
  age_verified_at: string | null;
  age_verified_until: string | null;
  location_verified: boolean;
  location: { country: string | null; state: string | null } | null;
  location_verified_at: string | null;
  location_verified_until: string | null;
  identity_verified: boolean;
  identity_verified_at: string | null;
  identity_verified_until: string | null;
  pending_reviews: number;
  verifications: VerificationSummary[];
}

import * as v from 'valibot';
import {
  AGE_THRESHOLDS,
  CHALLENGE_ACTIONS,
  DOCUMENT_TYPES,
  VERIFICATION_METHODS,
  VERIFICATION_STATUSES,
  VERIFICATION_TYPES,
  type AgeVerificationResult,
  type DocumentAnalysis,
  type VerificationStatusAnswer,
  type VerificationSummary,
} from '../verification';
import {
  agree,
  isoDate,
  isoDay,
  jsonObject as details,
  nullableIsoDate,
  share,
  uuid,
  type Same,
} from './common';

/** Answers (and the multipart upload fields) of the verification endpoints. */
const thresholdField = v.pipe(
  v.optional(v.picklist(AGE_THRESHOLDS.map(String) as ['12', '16', '18', '21'])),
  v.description('Age threshold T to check; 18 when left out'),
);

export const documentAnalysisSchema = v.object({
  document_type: v.string(),
  mrz_document_code: v.nullable(v.string()),
  mrz_format: v.nullable(v.string()),
  country_detected: v.pipe(
    v.nullable(v.string()),
    v.description('ICAO 9303 issuing state code, e.g. GBR or D'),
  ),
  state_detected: v.nullable(v.string()),
  nationality: v.nullable(v.string()),
  format_valid: v.boolean(),
  check_digits_valid: v.boolean(),
  not_expired: v.boolean(),
  expiry_date: v.nullable(isoDay),
  authentic: v.pipe(
    v.nullable(v.boolean()),
    v.description('Always null: security features cannot be checked from an image'),
  ),
  authenticity_note: v.string(),
  date_of_birth: v.nullable(isoDay),
  calculated_age: v.nullable(v.number()),
  age_threshold: v.number(),
  threshold_met: v.boolean(),
  document_number_last4: v.nullable(v.string()),
  read_confidence: share,
  reasons: v.array(v.string()),
  holder_binding: v.pipe(
    v.optional(
      v.object({
        portrait_found: v.boolean(),
        portrait_problem: v.nullable(v.string()),
        live_video: v.picklist(['passed', 'failed', 'missing', 'unusable']),
        liveness_reasons: v.array(v.string()),
        face_match: v.nullable(v.object({ similarity: share, threshold: share, match: v.boolean() })),
        printed_fields: v.nullable(
          v.object({
            date_of_birth: v.picklist(['agrees', 'conflicts', 'unreadable']),
            expiry_date: v.picklist(['agrees', 'conflicts', 'unreadable']),
            name: v.picklist(['agrees', 'unreadable']),
          }),
        ),
        bound: v.boolean(),
        review_reasons: v.array(v.string()),
      }),
    ),
    v.description(
      'Whether the document is bound to the sender: portrait on the document, live video liveness, face match, printed fields vs MRZ; review_reasons say why a person must check it',
    ),
  ),
});

export const verificationSummarySchema = v.object({
  id: uuid,
  verification_id: uuid,
  verification_type: v.picklist(VERIFICATION_TYPES),
  verification_method: v.picklist(VERIFICATION_METHODS),
  status: v.picklist(VERIFICATION_STATUSES),
  confidence_score: v.nullable(share),
  age_threshold: v.nullable(v.number()),
  needs_manual_review: v.boolean(),
  message: v.nullable(v.string()),
  details,
  document_analysis: v.nullable(documentAnalysisSchema),
  submitted_at: isoDate,
  reviewed_at: nullableIsoDate,
});

export const verificationListSchema = v.object({
  verifications: v.array(verificationSummarySchema),
  total_count: v.number(),
});

/** spec 01 §3 "Age verification result"; the frame fields are present for videos only. */
export const ageVerificationResultSchema = v.object({
  age: v.number(),
  confidence: share,
  is_live: v.boolean(),
  verification_id: uuid,
  status: v.picklist(['approved', 'rejected']),
  message: v.string(),
  age_threshold: v.number(),
  age_range: v.object({ min: v.number(), max: v.number() }),
  extracted_data: details,
  frames_analyzed: v.optional(v.number()),
  video_duration: v.pipe(v.optional(v.number()), v.description('Seconds')),
  live_percentage: v.pipe(v.optional(v.number()), v.description('Share of frames with a live face, 0–100')),
  video_liveness: v.optional(
    v.object({
      passed: v.boolean(),
      head_turn: v.boolean(),
      blink: v.boolean(),
      reasons: v.array(v.string()),
    }),
  ),
  eye_measurements: v.optional(
    v.object({ baseline_ear: v.number(), min_ear: v.number(), ear_series: v.array(v.number()) }),
  ),
});

/** The answer of the card, location and document routes: the outcome plus the stored verification. */
export const verificationAnswerSchema = v.object({
  message: v.string(),
  verification_id: uuid,
  status: v.picklist(VERIFICATION_STATUSES),
  verification: verificationSummarySchema,
});

export const cardCheckStartSchema = v.object({
  message: v.string(),
  setup_intent_id: v.string(),
  client_secret: v.string(),
  publishable_key: v.string(),
});

export const documentAnswerSchema = v.object({
  ...verificationAnswerSchema.entries,
  needs_manual_review: v.boolean(),
  document_analysis: documentAnalysisSchema,
});

export const verificationStatusSchema = v.object({
  overall: v.picklist(['fully_verified', 'partially_verified', 'not_verified']),
  age_verified: v.boolean(),
  proven_min_age: v.nullable(v.number()),
  age_verified_at: nullableIsoDate,
  age_verified_until: nullableIsoDate,
  location_verified: v.boolean(),
  location: v.nullable(v.object({ country: v.nullable(v.string()), state: v.nullable(v.string()) })),
  location_verified_at: nullableIsoDate,
  location_verified_until: nullableIsoDate,
  identity_verified: v.boolean(),
  identity_verified_at: nullableIsoDate,
  identity_verified_until: nullableIsoDate,
  pending_reviews: v.number(),
  verifications: v.pipe(
    v.array(verificationSummarySchema),
    v.description('The 10 most recent, newest first'),
  ),
});

/** Multipart fields of POST /age-verification/verify-age (spec 01 §7 "Age verification by camera"). */
export const ageVerificationUploadSchema = v.object({
  media_file: v.pipe(
    v.string(),
    v.description(
      'verification.jpg (JPEG, PNG or WebP, at most 5MB) or verification.webm (WebM or MP4, at most 5 seconds); the content is sniffed, not trusted',
    ),
  ),
  media_type: v.picklist(['image', 'video']),
  age_threshold: thresholdField,
  challenge_id: v.pipe(
    v.optional(v.string()),
    v.description(
      'Required with a video: the id of a fresh challenge from POST /age-verification/challenges, whose motions the video shows in order inside their windows. Single-use; photos need none.',
    ),
  ),
});

/** Multipart fields of POST /users/verify/document. */
export const documentUploadSchema = v.object({
  file: v.pipe(
    v.string(),
    v.description('JPEG, PNG, WebP or PDF, less than 10MB; the content is sniffed, not trusted'),
  ),
  selfie_video: v.pipe(
    v.optional(v.string()),
    v.description(
      'The 5-second live challenge video (WebM or MP4, head turn and blink) recorded in the same flow; without it the document cannot be approved automatically',
    ),
  ),
  document_type: v.optional(v.picklist(DOCUMENT_TYPES)),
  age_threshold: thresholdField,
  verification_type: v.pipe(
    v.optional(v.picklist(['age', 'identity'])),
    v.description('age by default; identity is approved through the same document + live video + face match'),
  ),
  challenge_id: v.pipe(
    v.optional(v.string()),
    v.description(
      'Required with selfie_video: the id of a fresh challenge from POST /age-verification/challenges that the video answers. Single-use.',
    ),
  ),
});

/** `POST /age-verification/challenges`: the motions a video must show, in order, each inside its window. */
export const livenessChallengeSchema = v.object({
  id: v.pipe(uuid, v.description('Send as challenge_id with the video; usable once')),
  steps: v.array(
    v.object({
      action: v.picklist(CHALLENGE_ACTIONS),
      prompt: v.pipe(v.string(), v.description('What the camera screen shows while the step is due')),
      start_seconds: v.pipe(v.number(), v.description('From the start of the recording')),
      end_seconds: v.number(),
    }),
  ),
  recording_seconds: v.pipe(v.number(), v.description('How long to record')),
  tolerance_seconds: v.pipe(
    v.number(),
    v.description('How far outside its window a motion still counts (recording start offset, reaction time)'),
  ),
  expires_at: v.pipe(isoDate, v.description('A challenge lasts 60 seconds')),
});
export type LivenessChallenge = v.InferOutput<typeof livenessChallengeSchema>;

agree<Same<v.InferOutput<typeof documentAnalysisSchema>, DocumentAnalysis>>(true);
agree<Same<v.InferOutput<typeof verificationSummarySchema>, VerificationSummary>>(true);
agree<Same<v.InferOutput<typeof ageVerificationResultSchema>, AgeVerificationResult>>(true);
agree<Same<v.InferOutput<typeof verificationStatusSchema>, VerificationStatusAnswer>>(true);

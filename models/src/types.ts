import type { QualityReason } from './errors';

/** Pixel measurements of the face region (see quality.ts). */
export interface QualityMetrics {
  /** Variance of the Laplacian of the face crop resized to 128×128 grey: low means blurred. */
  sharpness: number;
  /** Mean luminance of the face crop, 0–255. */
  brightness: number;
  /** Standard deviation of luminance of the face crop: low means washed-out or flat. */
  contrast: number;
  /** Share of face pixels crushed to black (< 16) or blown to white (> 239). */
  clippedDark: number;
  clippedBright: number;
  /** Shorter side of the face box in source pixels. */
  faceSize: number;
  yawDeg: number;
  pitchDeg: number;
}

export interface QualityAssessment {
  ok: boolean;
  /** 0–1: 1 is a sharp, well-exposed, frontal, large face. */
  score: number;
  reasons: QualityReason[];
  metrics: QualityMetrics;
}

/** What one face in one image measured, before any decision. Produced in a worker, decided on the main thread. */
export interface FaceObservation {
  box: [number, number, number, number];
  imageWidth: number;
  imageHeight: number;
  detectionScore: number;
  /**
   * The network's own age estimate: the expected age of the age networks' mean distribution (age-cnn.ts), or
   * faceres's age read out as Human does (faceres-features.ts) where no age network is loaded.
   */
  modelAge: number;
  /** The age networks' mean 100-bin age distribution (age-cnn.ts); absent where no age network is loaded. */
  ageDistribution?: number[];
  /** faceres's own age where faceres ran alongside the age networks (modelAge is then the networks'). */
  faceresAge?: number;
  /**
   * 1024-d faceres descriptor (identity): computed where a pass compares faces (video frames, face matching,
   * documents), empty for a photo's age check, which never compares.
   */
  descriptor: number[];
  /** Intermediate faceres activations and the age softmax of the descriptor's pass (faceres-features.ts, 3,172 values; empty without it). */
  ageFeatures: number[];
  /**
   * Single-frame passive cues from Human: antispoof ("real") and liveness ("live"), 0–1 (a photo, a video's best
   * frames); NaN where the pass skipped those models (face matching, documents), which never read them.
   */
  antispoof: number;
  liveness: number;
  yawDeg: number;
  pitchDeg: number;
  rollDeg: number;
  eyeAspectRatio: number;
  quality: QualityMetrics;
  /** Whether the face was only found after padding the image (tight crops). */
  padded: boolean;
}

/** Per-frame measurements of a video, from the landmark pass. */
export interface FrameObservation {
  timeSeconds: number;
  faces: number;
  yawDeg: number | null;
  pitchDeg: number | null;
  eyeAspectRatio: number | null;
  qualityScore: number | null;
  /** Head roll in degrees (added for the 3-D consistency check; absent in older observations). */
  rollDeg?: number | null;
  /**
   * A fixed subset of the face mesh (`TRACK_LANDMARKS` in track-features.ts) as [x, y, z] in frame pixels (z is the
   * mesh's relative depth): what the 2-D warp and parallax checks compare between frames.
   */
  landmarks?: number[][] | null;
  /** Mean absolute grey gradient inside both eye openings: a painted flat patch over a "closed" eye has almost none. */
  eyeTexture?: number | null;
  /** 48 × 48 grey thumbnail of the face box grown 10 % a side, base64 (`faceThumbnail` in track-features.ts). */
  faceThumb?: string | null;
  /** Grey patches around both eyes placed by the eye corners, base64 (`eyePatches` in track-features.ts). */
  eyePatch?: string | null;
  /**
   * Grey patches at the frame's resolution around the midline anchors (`anchorPatches` in track-features.ts), base64:
   * the nose tip's parallax against the brow and the lip (depth-anchors.ts). Absent in tracks stored before
   * 2026-11-30.
   */
  anchorPatch?: string | null;
}

/** One frame's landmark pass and, when it shows one face, how well it suits the age models (higher is better). */
export interface FrameScan {
  frame: FrameObservation;
  rank: number | null;
}

export interface VideoObservation {
  durationSeconds: number;
  frames: FrameObservation[];
  /** Full observations of the best frames (age models run only on these). */
  best: FaceObservation[];
  /** Time of each best frame, in the order of `best` (identity consistency across the clip). */
  bestTimes?: number[];
}

export interface AgeRange {
  min: number;
  max: number;
}

export interface VisionThresholds {
  /** Ages the caller wants decided, e.g. [18] or [12, 16, 18, 21]. Default [18, 21]. */
  thresholds?: number[];
  /**
   * Videos only: the server-issued challenge the clip must answer (challenge.ts). The clip is live only when the
   * motions were seen in this order inside these windows, as well as passing the other liveness checks.
   */
  challenge?: readonly ChallengeStep[];
}

interface AgeDecisionFields {
  /** Point estimate in years (ridge head, or Human's age in raw mode), one decimal. */
  age: number;
  /** 0–1: how far the measurement can be trusted (detection × quality), not the approval probability. */
  confidence: number;
  age_range: AgeRange;
  /** Thresholds from the request that this result may approve (liveness permitting, per the API's policy). */
  approved_thresholds: number[];
  /** Per-threshold detail: the score and the calibrated cut-off it was compared with. */
  threshold_decisions: ThresholdDecision[];
  decision_mode: 'head' | 'raw';
  quality: QualityAssessment;
  message: string;
}

export interface ThresholdDecision {
  threshold: number;
  approved: boolean;
  score: number;
  cutoff: number;
  /**
   * Why a threshold was not approved (each → send the person to the document route): 'below_cutoff'; 'child_guard'
   * (the face looks like a child, whatever the adult heads say); 'frames_disagree' (video: the median clears but
   * too few frames do on their own); 'not_calibrated'.
   */
  reason: 'approved' | 'below_cutoff' | 'not_calibrated' | 'child_guard' | 'frames_disagree';
}

export interface PhotoAnalysis extends AgeDecisionFields {
  media_type: 'image';
  /** A single photo cannot prove liveness: this is the weak passive cue only. */
  is_live: boolean;
  liveness_confidence: number;
  liveness_method: 'passive_single_frame';
  liveness_note: string;
  antispoof_score: number;
  timings_ms: { total: number };
}

export interface EyeMeasurements {
  baseline_ear: number;
  min_ear: number;
  ear_series: number[];
}

export interface VideoAnalysis extends AgeDecisionFields {
  media_type: 'video';
  is_live: boolean;
  liveness_confidence: number;
  liveness_method: 'active_challenge';
  liveness_note: string;
  frames_analyzed: number;
  video_duration: number;
  /** Share of sampled frames with exactly one usable face. */
  live_percentage: number;
  video_liveness: { passed: boolean; head_turn: boolean; blink: boolean; reasons: string[] };
  eye_measurements: EyeMeasurements;
  head_yaw_range: { min: number; max: number; span: number };
  blinks: number;
  /**
   * The per-frame track (seconds from the clip start, yaw in degrees, eye aspect ratio; null where the frame had no
   * single face) that a server-issued challenge is checked against (challenge.ts). Not part of the API answer.
   */
  track?: ChallengeTrackPoint[];
  /** The check against VisionThresholds.challenge; absent when no challenge was given. */
  challenge?: ChallengeCheckResult;
  timings_ms: { total: number; decode: number };
}

/** One sampled frame of a clip as the challenge checker reads it. */
export interface ChallengeTrackPoint {
  t: number;
  yaw: number | null;
  ear: number | null;
}

/** Server-issued liveness challenges (challenge.ts checks a clip against one). */
export type ChallengeAction = 'turn_left' | 'turn_right' | 'blink';

export interface ChallengeStep {
  action: ChallengeAction;
  /** Seconds from the start of the recording. */
  start_seconds: number;
  end_seconds: number;
}

export type ChallengeStepProblem = 'not_seen' | 'wrong_direction' | 'out_of_order';

export interface ChallengeStepResult {
  action: ChallengeAction;
  passed: boolean;
  /** When the motion was seen (seconds), or null. */
  at: number | null;
  problem: ChallengeStepProblem | null;
}

/** A turn the clip shows outside every window that asks for that side (seconds from the clip start). */
export interface ChallengeUnaskedTurn {
  action: 'turn_left' | 'turn_right';
  at: number;
}

export interface ChallengeCheckResult {
  passed: boolean;
  steps: ChallengeStepResult[];
  /** Turns seen where no step asked for them: any refuses the clip (challenge.ts unaskedTurns). */
  unaskedTurns: ChallengeUnaskedTurn[];
  /** The yaw (degrees) taken as the person facing the camera. */
  neutralYaw: number | null;
}

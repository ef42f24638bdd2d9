import type { AgeHeadWeights } from './age-head';
import { challengeMessage, checkChallenge, defaultChallengeCheckOptions } from './challenge';
import { decideAge, type DecisionConfig } from './decision';
import { VisionInputError } from './errors';
import { assessClipLiveness, videoTrack, type ClipLivenessOptions } from './liveness-3d';
import { PHOTO_LIVENESS_NOTE, VIDEO_LIVENESS_NOTE, ageMessage, videoLivenessMessage } from './messages';
import { assessQuality, type QualityGate } from './quality';
import type {
  FaceObservation,
  PhotoAnalysis,
  VideoAnalysis,
  VideoObservation,
  VisionThresholds,
} from './types';

/** What the engine's answers are decided with (createVisionEngine resolves it from its options). */
export interface DecisionSettings {
  decision: DecisionConfig;
  gate: QualityGate;
  liveness: ClipLivenessOptions;
  /** The age head; null forces the raw rule. */
  weights: AgeHeadWeights | null;
  /** Thresholds decided when a call names none. */
  defaultThresholds: number[];
}

/** A photo's answer from its observation: quality gate, age decision and the weak passive liveness cue. */
export function decidePhoto(
  obs: FaceObservation,
  opts: VisionThresholds,
  settings: DecisionSettings,
  t0: number,
): PhotoAnalysis {
  const { decision, gate, weights, defaultThresholds } = settings;
  const quality = assessQuality(obs.quality, gate);
  if (!quality.ok) throw VisionInputError.poorQuality(quality.reasons);
  const d = decideAge([obs], opts.thresholds ?? defaultThresholds, weights, decision);
  // The passive cues are weak (a genuine selfie ranked below a printed photo in testing), so they can only
  // ever say "weakly live" and never carry more than 0.3 confidence.
  const passive = Math.min(obs.antispoof, obs.liveness);
  return {
    media_type: 'image',
    age: d.age,
    confidence: round3(obs.detectionScore * quality.score),
    age_range: d.age_range,
    approved_thresholds: d.approved_thresholds,
    threshold_decisions: d.threshold_decisions,
    decision_mode: d.decision_mode,
    quality,
    message: ageMessage(d.threshold_decisions),
    is_live: passive >= 0.5,
    liveness_confidence: round3(0.3 * passive),
    liveness_method: 'passive_single_frame',
    liveness_note: PHOTO_LIVENESS_NOTE,
    antispoof_score: round3(obs.antispoof),
    timings_ms: { total: Math.round(performance.now() - t0) },
  };
}

/**
 * A video's answer from its observation: quality gate on the best frames, age decision over the usable ones, clip
 * liveness and, when the call names one, the server's challenge. Also returns the usable frames (checkHolder
 * compares them with the document's portrait).
 */
export function decideVideo(
  obs: VideoObservation & { decodeMs: number },
  opts: VisionThresholds,
  settings: DecisionSettings,
  t0: number,
): { analysis: VideoAnalysis; usable: FaceObservation[] } {
  const { decision, gate, liveness, weights, defaultThresholds } = settings;
  const assessed = obs.best.map((o) => ({ o, q: assessQuality(o.quality, gate) }));
  const usable = assessed.filter((a) => a.q.ok);
  if (!usable.length) throw VisionInputError.poorQuality([...new Set(assessed.flatMap((a) => a.q.reasons))]);
  const best = usable.reduce((a, b) => (b.q.score > a.q.score ? b : a));
  const d = decideAge(
    usable.map((a) => a.o),
    opts.thresholds ?? defaultThresholds,
    weights,
    decision,
  );
  const live = assessClipLiveness(videoTrack(obs), liveness);
  const track = obs.frames.map((f) => ({
    t: f.timeSeconds,
    yaw: f.faces === 1 ? f.yawDeg : null,
    ear: f.faces === 1 ? f.eyeAspectRatio : null,
  }));
  // The server's challenge is checked with the engine's own blink rule, so both agree on what a blink is.
  const challenge = opts.challenge
    ? checkChallenge(track, opts.challenge, { ...defaultChallengeCheckOptions, blink: liveness.blink })
    : undefined;
  const passed = live.passed && (challenge?.passed ?? true);
  const reasons = challenge && !challenge.passed ? [...live.reasons, 'challenge_not_answered'] : live.reasons;
  const analysis: VideoAnalysis = {
    media_type: 'video',
    age: d.age,
    confidence: round3(best.o.detectionScore * best.q.score),
    age_range: d.age_range,
    approved_thresholds: passed ? d.approved_thresholds : [],
    threshold_decisions: d.threshold_decisions,
    decision_mode: d.decision_mode,
    quality: best.q,
    message: passed
      ? ageMessage(d.threshold_decisions)
      : live.passed && challenge
        ? challengeMessage(challenge)
        : videoLivenessMessage(live.reasons),
    is_live: passed,
    liveness_confidence: live.confidence,
    liveness_method: 'active_challenge',
    liveness_note: VIDEO_LIVENESS_NOTE,
    frames_analyzed: obs.frames.length,
    video_duration: Math.round(obs.durationSeconds * 100) / 100,
    live_percentage: Math.round(live.facePresence * 1000) / 10,
    video_liveness: {
      passed,
      head_turn: live.headTurn,
      blink: live.blink,
      reasons,
    },
    eye_measurements: {
      baseline_ear: live.ear.baseline,
      min_ear: live.ear.min,
      ear_series: live.ear.series,
    },
    head_yaw_range: live.yaw,
    blinks: live.blinks,
    track,
    ...(challenge ? { challenge } : {}),
    timings_ms: { total: Math.round(performance.now() - t0), decode: Math.round(obs.decodeMs) },
  };
  return { analysis, usable: usable.map((a) => a.o) };
}

export function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}

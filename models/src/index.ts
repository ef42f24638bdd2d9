export {
  ageHeads,
  createVisionEngine,
  committedWeights,
  defaultAgeModel,
  modelManifest,
  type AgeModel,
} from './vision-engine';
export type { VisionEngine, VisionEngineOptions, VisionStatus } from './vision-engine';
export type { HolderCheck } from './holder-check';
export { VisionInputError, VisionBusyError, ModelIntegrityError } from './errors';
export type { VisionInputCode, QualityReason } from './errors';
export type {
  PhotoAnalysis,
  VideoAnalysis,
  VisionThresholds,
  AgeRange,
  ThresholdDecision,
  QualityAssessment,
  QualityMetrics,
  FaceObservation,
} from './types';
export type { DocumentReading, PrintedCheck } from './document/read-document';
export { comparePrinted, findPrintedDates } from './document/printed-text';
export { clopperPearson, chooseCutoff, rateWithInterval } from './calibration';
export { readDocument } from './document/read-document';
export { ffmpegPath } from './video-decode';
export { parseMrzLines, normaliseMrzText, mrzDateToIso, mrzCheckDigit, buildTd3 } from './document/mrz-parse';
export { assessQuality, laplacianVariance, luminanceStats, defaultQualityGate } from './quality';
export type { QualityGate } from './quality';
export { decideAge, defaultDecisionConfig } from './decision';
export type { DecisionConfig } from './decision';
export { assessActiveLiveness, countBlinks, eyeAspectRatio } from './liveness-signals';
export { cosineSimilarity, humanSimilarity, decideFaceMatch, defaultFaceMatchConfig } from './face-match';
export type { FaceMatchConfig, FaceMatchResult } from './face-match';
export {
  CHALLENGE_PROMPTS,
  challengeMessage,
  checkChallenge,
  defaultChallengeCheckOptions,
} from './challenge';
export type {
  ChallengeAction,
  ChallengeStep,
  ChallengeCheckOptions,
  ChallengeCheckResult,
  ChallengeStepResult,
} from './challenge';
export type { ChallengeTrackPoint } from './types';
export {
  assessClipLiveness,
  assessConsistency,
  defaultClipLivenessOptions,
  defaultConsistencyOptions,
  videoTrack,
} from './liveness-3d';
export { blinkTexture } from './blink-texture';
export { parallaxConsistency } from './parallax';
export type {
  ClipLivenessOptions,
  ClipLivenessResult,
  ConsistencyOptions,
  ConsistencyResult,
  TrackFrame,
} from './liveness-3d';
export type { FrameObservation, VideoObservation } from './types';

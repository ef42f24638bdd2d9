import type { FaceObservation } from './types';

/**
 * Face matching on Human's faceres descriptor (1024-d, non-negative: it comes out of a ReLU, and is not
 * length-normalised). Cosine similarity ignores the descriptor's length, which varies with exposure and crop far
 * more than with identity; because every component is ≥ 0 it already lies in 0–1. Measured on this project's
 * data (scripts/calibrate-face-match.ts, MODEL_CARD.md) it separated the genuine pairs we have from impostors
 * better than Human's own Euclidean `similarity`.
 */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || !a.length) throw new Error('descriptors differ in length');
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += a[i]! * b[i]!;
    aa += a[i]! * a[i]!;
    bb += b[i]! * b[i]!;
  }
  if (aa === 0 || bb === 0) return 0;
  return Math.min(1, Math.max(0, ab / Math.sqrt(aa * bb)));
}

/**
 * Human's `match.similarity` with its defaults (order 2, multiplier 25, normalised to 0.2–0.8), as in
 * @vladmandic/human src/face/match.ts; reported beside the cosine for comparison with Human's documentation.
 */
export function humanSimilarity(a: readonly number[], b: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i]! - b[i]!) ** 2;
  const dist = Math.round(100 * 25 * sum) / 100;
  if (dist === 0) return 1;
  const norm = (1 - Math.sqrt(dist) / 100 - 0.2) / (0.8 - 0.2);
  return Math.round(100 * Math.max(Math.min(norm, 1), 0)) / 100;
}

export interface FaceMatchConfig {
  /**
   * Cosine similarity at or above which two faces are called the same person. Default 0.76: above the point
   * where 0.01 % of faces-dev impostor pairs match (0.722) and above every impostor pair of NUAA webcam
   * captures (max 0.750), whose shared camera and lighting push different people closer together. Genuine pairs
   * are scarce here, so the false non-match rate is only roughly known (MODEL_CARD.md): a non-match means
   * "not confirmed", not "a different person".
   */
  threshold: number;
}

export const defaultFaceMatchConfig: FaceMatchConfig = { threshold: 0.76 };

export interface FaceMatchResult {
  /** Cosine similarity of the two faceres descriptors, 0–1. */
  similarity: number;
  match: boolean;
  threshold: number;
  message: string;
  /** Human's Euclidean similarity of the same descriptors, for reference only (not used to decide). */
  human_similarity: number;
  /** Whether each face passed the quality gate; a match between poor images is less trustworthy. */
  quality_ok: [boolean, boolean];
}

export const FACE_MATCH_MESSAGES = {
  match: 'The two faces appear to belong to the same person.',
  noMatch: 'The two faces do not appear to belong to the same person.',
} as const;

export function decideFaceMatch(
  a: Pick<FaceObservation, 'descriptor'>,
  b: Pick<FaceObservation, 'descriptor'>,
  qualityOk: [boolean, boolean],
  config: FaceMatchConfig = defaultFaceMatchConfig,
): FaceMatchResult {
  const similarity = cosineSimilarity(a.descriptor, b.descriptor);
  const match = similarity >= config.threshold;
  return {
    similarity: Math.round(similarity * 1000) / 1000,
    match,
    threshold: config.threshold,
    message: match ? FACE_MATCH_MESSAGES.match : FACE_MATCH_MESSAGES.noMatch,
    human_similarity: humanSimilarity(a.descriptor, b.descriptor),
    quality_ok: qualityOk,
  };
}

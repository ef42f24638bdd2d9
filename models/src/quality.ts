import type { QualityReason } from './errors';
import type { QualityAssessment, QualityMetrics } from './types';

/** Side of the square grey face crop the metrics are computed on, so sharpness is comparable across image sizes. */
export const QUALITY_CROP_SIZE = 128;

export interface QualityGate {
  minSharpness: number;
  minBrightness: number;
  maxBrightness: number;
  minContrast: number;
  maxClipped: number;
  minFaceSize: number;
  maxYawDeg: number;
  maxPitchDeg: number;
}

/**
 * Defaults chosen on faces-dev and webcam captures (see MODEL_CARD.md): about a third of the minors the raw
 * models over-aged were blurred or washed out, so such faces are sent back for a retake instead of scored.
 */
export const defaultQualityGate: QualityGate = {
  minSharpness: 25,
  minBrightness: 55,
  maxBrightness: 210,
  minContrast: 24,
  maxClipped: 0.35,
  minFaceSize: 80,
  maxYawDeg: 30,
  maxPitchDeg: 25,
};

/** Variance of the 4-neighbour Laplacian over the interior pixels (Pech-Pacheco et al. 2000 focus measure). */
export function laplacianVariance(gray: Uint8Array, width: number, height: number): number {
  if (width < 3 || height < 3) return 0;
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  for (let y = 1; y < height - 1; y++) {
    const row = y * width;
    for (let x = 1; x < width - 1; x++) {
      const i = row + x;
      const v = gray[i - width]! + gray[i + width]! + gray[i - 1]! + gray[i + 1]! - 4 * gray[i]!;
      sum += v;
      sumSq += v * v;
      n++;
    }
  }
  const mean = sum / n;
  return sumSq / n - mean * mean;
}

export interface LuminanceStats {
  mean: number;
  std: number;
  clippedDark: number;
  clippedBright: number;
}

export function luminanceStats(gray: Uint8Array): LuminanceStats {
  let sum = 0;
  let sumSq = 0;
  let dark = 0;
  let bright = 0;
  for (const v of gray) {
    sum += v;
    sumSq += v * v;
    if (v < 16) dark++;
    else if (v > 239) bright++;
  }
  const n = Math.max(1, gray.length);
  const mean = sum / n;
  return {
    mean,
    std: Math.sqrt(Math.max(0, sumSq / n - mean * mean)),
    clippedDark: dark / n,
    clippedBright: bright / n,
  };
}

/** ITU-R BT.601 luma of interleaved RGB (or RGBA with channels = 4). */
export function rgbToGray(rgb: Uint8Array, channels = 3): Uint8Array {
  const out = new Uint8Array(Math.floor(rgb.length / channels));
  for (let i = 0, j = 0; j < out.length; i += channels, j++) {
    out[j] = Math.round(0.299 * rgb[i]! + 0.587 * rgb[i + 1]! + 0.114 * rgb[i + 2]!);
  }
  return out;
}

/** Square crop box around a face box, enlarged by `margin`, clamped to the image. */
export function faceCropRegion(
  box: readonly [number, number, number, number],
  imageWidth: number,
  imageHeight: number,
  margin = 0,
): { left: number; top: number; width: number; height: number } {
  const [x, y, w, h] = box;
  const side = Math.max(w, h) * (1 + margin);
  const cx = x + w / 2;
  const cy = y + h / 2;
  const left = Math.max(0, Math.floor(cx - side / 2));
  const top = Math.max(0, Math.floor(cy - side / 2));
  const right = Math.min(imageWidth, Math.ceil(cx + side / 2));
  const bottom = Math.min(imageHeight, Math.ceil(cy + side / 2));
  return { left, top, width: Math.max(1, right - left), height: Math.max(1, bottom - top) };
}

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

export function assessQuality(
  metrics: QualityMetrics,
  gate: QualityGate = defaultQualityGate,
): QualityAssessment {
  const reasons: QualityReason[] = [];
  if (metrics.faceSize < gate.minFaceSize) reasons.push('face_too_small');
  if (metrics.sharpness < gate.minSharpness) reasons.push('blur');
  if (metrics.brightness < gate.minBrightness || metrics.clippedDark > gate.maxClipped)
    reasons.push('too_dark');
  else if (metrics.brightness > gate.maxBrightness || metrics.clippedBright > gate.maxClipped)
    reasons.push('too_bright');
  if (metrics.contrast < gate.minContrast) reasons.push('low_contrast');
  if (Math.abs(metrics.yawDeg) > gate.maxYawDeg || Math.abs(metrics.pitchDeg) > gate.maxPitchDeg)
    reasons.push('pose');

  // Each factor is 1 comfortably inside its gate and falls linearly to 0 at the gate, so the score ranks
  // frames of one video and feeds `confidence` without a second set of thresholds.
  const sharp = clamp01(Math.log(Math.max(1, metrics.sharpness) / gate.minSharpness) / Math.log(4));
  const expo = clamp01(
    Math.min(metrics.brightness - gate.minBrightness, gate.maxBrightness - metrics.brightness) / 40,
  );
  const contrast = clamp01((metrics.contrast - gate.minContrast) / 20);
  const size = clamp01((metrics.faceSize - gate.minFaceSize) / gate.minFaceSize);
  const pose = clamp01(
    1 - Math.max(Math.abs(metrics.yawDeg) / gate.maxYawDeg, Math.abs(metrics.pitchDeg) / gate.maxPitchDeg),
  );
  const score = reasons.length ? 0 : 0.5 + 0.5 * Math.min(sharp, expo, contrast, size, pose);
  return { ok: reasons.length === 0, score: Math.round(score * 1000) / 1000, reasons, metrics };
}

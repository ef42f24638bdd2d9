import type { FrameObservation } from './types';

type Point = readonly number[];

/**
 * MediaPipe face-mesh indices of the six eye-contour points used by the eye aspect ratio
 * (Soukupová & Čech 2016): [outer corner, upper 1, upper 2, inner corner, lower 2, lower 1].
 */
const RIGHT_EYE = [33, 160, 158, 133, 153, 144] as const;
const LEFT_EYE = [362, 385, 387, 263, 373, 380] as const;

const dist = (a: Point, b: Point) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!);

function earOf(mesh: readonly Point[], idx: readonly number[]): number | null {
  const p = idx.map((i) => mesh[i]);
  if (p.some((q) => !q)) return null;
  const [p1, p2, p3, p4, p5, p6] = p as Point[];
  const width = dist(p1!, p4!);
  if (width <= 0) return null;
  return (dist(p2!, p6!) + dist(p3!, p5!)) / (2 * width);
}

/** Mean eye aspect ratio of both eyes from a 468/478-point mesh; null when the mesh is incomplete. */
export function eyeAspectRatio(mesh: readonly Point[]): number | null {
  const r = earOf(mesh, RIGHT_EYE);
  const l = earOf(mesh, LEFT_EYE);
  if (r === null || l === null) return null;
  return (r + l) / 2;
}

export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const pos = (s.length - 1) * p;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}

/** The reference frame of the 2-D warp tests (parallax.ts, photometric.ts): the one nearest the median yaw. */
export function medianYawFrame<F extends { yawDeg: number }>(frames: readonly F[]): F {
  const medianYaw = percentile(
    frames.map((f) => f.yawDeg),
    0.5,
  );
  return frames.reduce((a, b) => (Math.abs(b.yawDeg - medianYaw) < Math.abs(a.yawDeg - medianYaw) ? b : a));
}

/**
 * What every 2-D warp test compares (parallax.ts, photometric.ts, depth-parallax.ts, depth-anchors.ts): the
 * reference frame (`medianYawFrame`) and each other frame turned at least `minYawDeg` from it, with its yaw change.
 */
export function turnedFrames<F extends { yawDeg: number }>(
  frames: readonly F[],
  minYawDeg: number,
): { ref: F; turned: { frame: F; yawDelta: number }[] } {
  const ref = medianYawFrame(frames);
  const turned: { frame: F; yawDelta: number }[] = [];
  for (const frame of frames) {
    const yawDelta = frame.yawDeg - ref.yawDeg;
    if (frame !== ref && Math.abs(yawDelta) >= minYawDeg) turned.push({ frame, yawDelta });
  }
  return { ref, turned };
}

export interface BlinkOptions {
  /** A frame is "closed" when its EAR falls below this share of the open-eye baseline. */
  closedRatio: number;
  /** …and "open" again above this share. */
  openRatio: number;
  /** Longer closures are eyes shut or looking down, not blinks. */
  maxBlinkSeconds: number;
}

export const defaultBlinkOptions: BlinkOptions = { closedRatio: 0.72, openRatio: 0.85, maxBlinkSeconds: 0.8 };

export interface BlinkResult {
  blinks: number;
  baseline: number;
  minEar: number;
}

/** Counts open → closed → open transitions in an EAR time series (nulls are frames without a face). */
export function countBlinks(
  series: readonly { t: number; ear: number | null }[],
  options: BlinkOptions = defaultBlinkOptions,
): BlinkResult {
  const valid = series.filter(
    (s): s is { t: number; ear: number } => s.ear !== null && Number.isFinite(s.ear),
  );
  if (valid.length < 3) return { blinks: 0, baseline: NaN, minEar: NaN };
  // The 75th percentile is the open-eye level even when a third of frames catch a blink.
  const baseline = percentile(
    valid.map((s) => s.ear),
    0.75,
  );
  const minEar = Math.min(...valid.map((s) => s.ear));
  let blinks = 0;
  let state: 'unknown' | 'open' | 'closed' = 'unknown';
  let closedAt = 0;
  for (const { t, ear } of valid) {
    const ratio = ear / baseline;
    if (ratio >= options.openRatio) {
      if (state === 'closed' && t - closedAt <= options.maxBlinkSeconds) blinks++;
      state = 'open';
    } else if (ratio < options.closedRatio && state === 'open') {
      state = 'closed';
      closedAt = t;
    }
  }
  return { blinks, baseline, minEar };
}

export interface ActiveLivenessOptions {
  minYawSpanDeg: number;
  minBlinks: number;
  /** Share of sampled frames that must show exactly one face. */
  minFacePresence: number;
  blink: BlinkOptions;
}

export const defaultActiveLivenessOptions: ActiveLivenessOptions = {
  minYawSpanDeg: 15,
  minBlinks: 1,
  minFacePresence: 0.6,
  blink: defaultBlinkOptions,
};

export interface ActiveLivenessResult {
  passed: boolean;
  headTurn: boolean;
  blink: boolean;
  blinks: number;
  yaw: { min: number; max: number; span: number };
  facePresence: number;
  confidence: number;
  reasons: string[];
  ear: { baseline: number; min: number; series: number[] };
}

/**
 * The active challenge of DESIGN.md §5: a turn of the head and a blink within the clip. A still photo, printed or
 * on a screen, neither blinks nor changes yaw relative to its own mesh, and Human's single-frame scores cannot
 * tell it apart (measured: liveness ≥ 0.95 on a video of a still), so only motion is trusted.
 */
export function assessActiveLiveness(
  frames: readonly FrameObservation[],
  options: ActiveLivenessOptions = defaultActiveLivenessOptions,
): ActiveLivenessResult {
  const single = frames.filter((f) => f.faces === 1);
  const facePresence = frames.length ? single.length / frames.length : 0;
  const yaws = single.map((f) => f.yawDeg).filter((v): v is number => v !== null);
  // Trim one extreme on each side so a single mis-fitted mesh cannot fake a head turn.
  const trimmed = [...yaws].sort((a, b) => a - b);
  if (trimmed.length >= 8) {
    trimmed.shift();
    trimmed.pop();
  }
  const yawMin = trimmed.length ? trimmed[0]! : 0;
  const yawMax = trimmed.length ? trimmed[trimmed.length - 1]! : 0;
  const span = yawMax - yawMin;
  const blink = countBlinks(
    single.map((f) => ({ t: f.timeSeconds, ear: f.eyeAspectRatio })),
    options.blink,
  );
  const headTurn = span >= options.minYawSpanDeg;
  const blinked = blink.blinks >= options.minBlinks;
  const present = facePresence >= options.minFacePresence;
  const reasons: string[] = [];
  if (!present) reasons.push('face_not_visible_enough');
  if (!headTurn) reasons.push('no_head_turn');
  if (!blinked) reasons.push('no_blink');
  const passed = present && headTurn && blinked;
  const turnStrength = Math.min(1, span / (2 * options.minYawSpanDeg));
  const blinkStrength = Math.min(1, blink.blinks / (options.minBlinks + 1));
  const confidence = passed
    ? 0.6 + 0.2 * turnStrength + 0.2 * blinkStrength
    : 0.3 * Math.min(turnStrength, blinkStrength, facePresence);
  const round = (v: number, d = 3) => (Number.isFinite(v) ? Math.round(v * 10 ** d) / 10 ** d : 0);
  return {
    passed,
    headTurn,
    blink: blinked,
    blinks: blink.blinks,
    yaw: { min: round(yawMin, 1), max: round(yawMax, 1), span: round(span, 1) },
    facePresence: round(facePresence),
    confidence: round(confidence),
    reasons,
    ear: {
      baseline: round(blink.baseline),
      min: round(blink.minEar),
      series: single.map((f) => round(f.eyeAspectRatio ?? NaN)),
    },
  };
}

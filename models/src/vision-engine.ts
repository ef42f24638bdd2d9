import os from 'node:os';
import weightsJson from '../weights/age-head.json' with { type: 'json' };
import manifestJson from '../manifest.json' with { type: 'json' };
import type { AgeHeadWeights } from './age-head';
import { decideAge, defaultDecisionConfig, type DecisionConfig } from './decision';
import {
  readDocument,
  closeDocumentReader,
  documentImageBytes,
  type DocumentReading,
} from './document/read-document';
import { median } from './calibration';
import { challengeMessage, checkChallenge, defaultChallengeCheckOptions } from './challenge';
import { VisionInputError } from './errors';
import {
  cosineSimilarity,
  decideFaceMatch,
  defaultFaceMatchConfig,
  type FaceMatchConfig,
  type FaceMatchResult,
} from './face-match';
import type { BackendPreference } from './human-runtime';
import {
  assessClipLiveness,
  defaultClipLivenessOptions,
  videoTrack,
  type ClipLivenessOptions,
  type ConsistencyOptions,
} from './liveness-3d';
import type { ActiveLivenessOptions } from './liveness-signals';
import { verifyManifest, type ModelManifest } from './manifest';
import { PHOTO_LIVENESS_NOTE, VIDEO_LIVENESS_NOTE, ageMessage, videoLivenessMessage } from './messages';
import { assessQuality, defaultQualityGate, type QualityGate } from './quality';
import type {
  FaceObservation,
  FrameScan,
  PhotoAnalysis,
  VideoAnalysis,
  VideoObservation,
  VisionThresholds,
} from './types';
import {
  decodeVideo,
  defaultVideoDecodeOptions,
  type DecodedVideo,
  type VideoDecodeOptions,
} from './video-decode';
import { chooseBestFrames, noClearFace } from './video-observer';
import { WorkerPool, type PoolJob } from './worker-pool';
import type { WorkerValue } from './worker-protocol';

export interface VisionEngineOptions {
  /** Worker threads; default os.availableParallelism(). */
  workers?: number;
  /** Waiting jobs beyond the running ones before VisionBusyError; default 4 per worker. */
  maxQueue?: number;
  jobTimeoutMs?: number;
  backend?: BackendPreference;
  decision?: Partial<DecisionConfig>;
  qualityGate?: Partial<QualityGate>;
  liveness?: Partial<ActiveLivenessOptions> & { consistency?: Partial<ConsistencyOptions> };
  video?: Partial<VideoDecodeOptions>;
  /** Thresholds decided when a call names none. */
  defaultThresholds?: number[];
  /** Override the committed head (tests, experiments); null forces the raw rule. */
  weights?: AgeHeadWeights | null;
  faceMatch?: Partial<FaceMatchConfig>;
}

export interface VisionStatus {
  backend: string;
  ready: boolean;
  workers: number;
  queued: number;
}

export interface VisionEngine {
  /** Resolves once every worker has loaded its models; rejects (e.g. ModelIntegrityError) if the engine cannot start. */
  readonly ready: Promise<void>;
  status(): VisionStatus;
  analyzePhoto(bytes: Uint8Array, options?: VisionThresholds): Promise<PhotoAnalysis>;
  analyzeVideo(bytes: Uint8Array, options?: VisionThresholds): Promise<VideoAnalysis>;
  readDocument(bytes: Uint8Array, mime: string): Promise<DocumentReading>;
  /** Raw measurements of the single face in a photo, before gate and decision (training and evaluation). */
  observePhoto(bytes: Uint8Array): Promise<FaceObservation>;
  /** The per-frame track of a clip and its best frames, before any decision (liveness evaluation). */
  observeVideo(bytes: Uint8Array): Promise<VideoObservation & { decodeMs: number }>;
  /**
   * Whether two images (JPEG/PNG/WebP) show the same person, from Human's faceres descriptors (both images are
   * analysed in parallel in the pool). Each image must hold exactly one face: otherwise the VisionInputError of
   * that image (no_face, multiple_faces, unreadable_image). Identity support only, never an age decision.
   */
  compareFaces(a: Uint8Array, b: Uint8Array): Promise<FaceMatchResult>;
  /**
   * Binds a document to the person holding it: finds the portrait on the document (image or scanned PDF) and
   * analyses the live challenge video (liveness, age) in parallel, then compares the portrait with the video's
   * best frames. Problems with either input come back in the answer (never thrown), so the caller can send the
   * case to a reviewer with the reason.
   */
  checkHolder(document: Uint8Array, video: Uint8Array, options?: VisionThresholds): Promise<HolderCheck>;
  close(): Promise<void>;
}

export interface HolderCheck {
  portrait: {
    found: boolean;
    /** Why no usable portrait: no_face, multiple_faces, unreadable_image … (VisionInputError codes). */
    problem: string | null;
    quality_ok: boolean;
  };
  /** The live video's analysis; null when it could not be analysed (see video_problem). */
  video: VideoAnalysis | null;
  video_problem: { code: string; message: string } | null;
  /**
   * Portrait vs each usable video frame (cosine of faceres descriptors); `similarity` is their median and `match`
   * is `similarity ≥ threshold`. Null when either side is missing.
   */
  face_match: {
    similarity: number;
    frame_similarities: number[];
    match: boolean;
    threshold: number;
  } | null;
}

export const committedWeights = weightsJson as unknown as AgeHeadWeights;
export const modelManifest = manifestJson as ModelManifest;

export function createVisionEngine(options: VisionEngineOptions = {}): VisionEngine {
  const decision: DecisionConfig = { ...defaultDecisionConfig, ...options.decision };
  const gate: QualityGate = { ...defaultQualityGate, ...options.qualityGate };
  const liveness: ClipLivenessOptions = {
    ...defaultClipLivenessOptions,
    ...options.liveness,
    consistency: { ...defaultClipLivenessOptions.consistency, ...options.liveness?.consistency },
  };
  const video: VideoDecodeOptions = { ...defaultVideoDecodeOptions, ...options.video };
  const weights = options.weights === undefined ? committedWeights : options.weights;
  const defaultThresholds = options.defaultThresholds ?? [18, 21];
  const faceMatch: FaceMatchConfig = { ...defaultFaceMatchConfig, ...options.faceMatch };
  const size = Math.max(1, options.workers ?? os.availableParallelism());

  let pool: WorkerPool | null = null;
  let startError: unknown = null;
  try {
    verifyManifest(modelManifest);
    pool = new WorkerPool({
      size,
      maxQueue: options.maxQueue ?? size * 4,
      jobTimeoutMs: options.jobTimeoutMs ?? 60_000,
      workerData: { backend: options.backend ?? 'auto', video },
    });
  } catch (error) {
    startError = error;
  }
  const ready = pool ? pool.ready : Promise.reject(startError);
  let isReady = false;
  ready.then(
    () => (isReady = true),
    () => undefined,
  );

  const usePool = async (): Promise<WorkerPool> => {
    if (!pool) throw startError;
    await ready;
    return pool;
  };

  async function observePhoto(bytes: Uint8Array): Promise<FaceObservation> {
    return (await (await usePool()).run('photo', bytes)) as FaceObservation;
  }

  async function compareFaces(a: Uint8Array, b: Uint8Array): Promise<FaceMatchResult> {
    const settled = await (
      await usePool()
    ).runBatch([
      { op: 'descriptor', bytes: a },
      { op: 'descriptor', bytes: b },
    ]);
    const [oa, ob] = settled.map((r) => {
      if (r.status === 'rejected') throw r.reason;
      return r.value as FaceObservation;
    });
    return decideFaceMatch(
      oa!,
      ob!,
      [assessQuality(oa!.quality, gate).ok, assessQuality(ob!.quality, gate).ok],
      faceMatch,
    );
  }

  async function analyzePhoto(bytes: Uint8Array, opts: VisionThresholds = {}): Promise<PhotoAnalysis> {
    const t0 = performance.now();
    const obs = await observePhoto(bytes);
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
   * Decode once here (ffmpeg is its own process) and fan the landmark pass out over the pool in time-ordered
   * chunks as ffmpeg produces them, merge in order, then run the age models on the best frames, also in parallel.
   * A video holds one queue place from before decoding until its last job is queued (MODEL_CARD.md, step 5).
   */
  async function observeVideo(bytes: Uint8Array): Promise<VideoObservation & { decodeMs: number }> {
    const p = await usePool();
    const reservation = p.reserve();
    const scanning: Promise<PromiseSettledResult<WorkerValue>[]>[] = [];
    let width = 0;
    let height = 0;
    const frameJob = (frames: DecodedVideo['frames'], op: 'frames' | 'frame'): PoolJob => ({
      op,
      bytes: packFrames(frames.map((f) => f.image.data)),
      frames: { width, height, times: frames.map((f) => f.timeSeconds) },
      owned: true,
    });
    try {
      const t0 = performance.now();
      // Twice as many chunks as workers for a full-length clip, so a worker busy with a photo does not hold up
      // half the clip; chunks start while ffmpeg is still decoding the rest.
      const batch = Math.max(1, Math.ceil((video.fps * video.maxSeconds) / (p.size * 2)));
      const clip = await decodeVideo(bytes, video, {
        batch,
        onFrames: (frames) => {
          ({ width, height } = frames[0]!.image);
          // The first chunk takes the queue place reserved above; the rest continue the same request.
          const first = scanning.length === 0;
          scanning.push(p.runBatch([frameJob(frames, 'frames')], { reservation, continuation: !first }));
        },
      });
      const decodeMs = performance.now() - t0;
      const scans = (await Promise.all(scanning)).flat().flatMap((r) => {
        if (r.status === 'rejected') throw r.reason;
        return r.value as FrameScan[];
      });
      const chosen = chooseBestFrames(scans);
      const settled = await p.runBatch(
        chosen.map((i) => frameJob([clip.frames[i]!], 'frame')),
        { reservation, continuation: true },
      );
      const best: FaceObservation[] = [];
      const bestTimes: number[] = [];
      settled.forEach((r, i) => {
        if (r.status === 'fulfilled') {
          best.push(r.value as FaceObservation);
          bestTimes.push(clip.frames[chosen[i]!]!.timeSeconds);
        } else if (!(r.reason instanceof VisionInputError)) throw r.reason;
      });
      if (!best.length) throw noClearFace();
      return {
        durationSeconds: clip.durationSeconds,
        frames: scans.map((s) => s.frame),
        best,
        bestTimes,
        decodeMs,
      };
    } catch (error) {
      // A clip refused (too long, unreadable) after some chunks were queued: drop those not started yet.
      p.cancel(reservation);
      void Promise.allSettled(scanning);
      throw error;
    } finally {
      reservation.release();
    }
  }

  async function analyzeVideo(bytes: Uint8Array, opts: VisionThresholds = {}): Promise<VideoAnalysis> {
    const t0 = performance.now();
    return decideVideo(await observeVideo(bytes), opts, t0).analysis;
  }

  function decideVideo(
    obs: VideoObservation & { decodeMs: number },
    opts: VisionThresholds,
    t0: number,
  ): { analysis: VideoAnalysis; usable: FaceObservation[] } {
    const assessed = obs.best.map((o) => ({ o, q: assessQuality(o.quality, gate) }));
    const usable = assessed.filter((a) => a.q.ok);
    if (!usable.length)
      throw VisionInputError.poorQuality([...new Set(assessed.flatMap((a) => a.q.reasons))]);
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
    const reasons =
      challenge && !challenge.passed ? [...live.reasons, 'challenge_not_answered'] : live.reasons;
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

  async function checkHolder(
    document: Uint8Array,
    videoBytes: Uint8Array,
    opts: VisionThresholds = {},
  ): Promise<HolderCheck> {
    const t0 = performance.now();
    const image = documentImageBytes(document);
    const [portraitResult, videoResult] = await Promise.allSettled([
      image
        ? usePool().then((p) => p.run('descriptor', image) as Promise<FaceObservation>)
        : Promise.reject(new VisionInputError('unreadable_image')),
      observeVideo(videoBytes),
    ]);
    const inputProblem = (r: PromiseSettledResult<unknown>) => {
      if (r.status === 'fulfilled') return null;
      if (!(r.reason instanceof VisionInputError)) throw r.reason;
      return { code: r.reason.code, message: r.reason.message };
    };
    const portraitProblem = inputProblem(portraitResult);
    const videoProblem = inputProblem(videoResult);
    const portraitObs = portraitResult.status === 'fulfilled' ? portraitResult.value : null;
    let video: VideoAnalysis | null = null;
    let frames: FaceObservation[] = [];
    let problem = videoProblem;
    if (videoResult.status === 'fulfilled') {
      try {
        const decided = decideVideo(videoResult.value, opts, t0);
        video = decided.analysis;
        frames = decided.usable;
      } catch (error) {
        if (!(error instanceof VisionInputError)) throw error;
        problem = { code: error.code, message: error.message };
      }
    }
    let matched: HolderCheck['face_match'] = null;
    if (portraitObs && frames.length) {
      const sims = frames.map((f) => cosineSimilarity(portraitObs.descriptor, f.descriptor));
      const similarity = median(sims);
      matched = {
        similarity: round3(similarity),
        frame_similarities: sims.map(round3),
        match: similarity >= faceMatch.threshold,
        threshold: faceMatch.threshold,
      };
    }
    return {
      portrait: {
        found: !!portraitObs,
        problem: portraitProblem?.code ?? null,
        quality_ok: portraitObs ? assessQuality(portraitObs.quality, gate).ok : false,
      },
      video,
      video_problem: problem,
      face_match: matched,
    };
  }

  return {
    ready,
    status: () => ({
      backend: pool?.backend ?? 'unavailable',
      ready: isReady,
      workers: pool?.readyWorkers ?? 0,
      queued: pool?.queued ?? 0,
    }),
    analyzePhoto,
    analyzeVideo,
    observePhoto,
    observeVideo,
    compareFaces,
    checkHolder,
    readDocument,
    close: async () => {
      await pool?.close();
      await closeDocumentReader();
    },
  };
}

/** Copies frames into one fresh ArrayBuffer that can be transferred to a worker. */
function packFrames(frames: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(frames.reduce((n, f) => n + f.byteLength, 0));
  let offset = 0;
  for (const f of frames) {
    out.set(f, offset);
    offset += f.byteLength;
  }
  return out;
}

function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}

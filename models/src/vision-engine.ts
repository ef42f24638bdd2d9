import os from 'node:os';
import weightsJson from '../weights/age-head.json' with { type: 'json' };
import networksWeightsJson from '../weights/age-head-networks.json' with { type: 'json' };
import combinedWeightsJson from '../weights/age-head-combined.json' with { type: 'json' };
import manifestJson from '../manifest.json' with { type: 'json' };
import { ageModelsRead, type AgeHeadWeights } from './age-head';
import { defaultDecisionConfig, type DecisionConfig } from './decision';
import { readDocument, closeDocumentReader, type DocumentReading } from './document/read-document';
import {
  decideFaceMatch,
  defaultFaceMatchConfig,
  type FaceMatchConfig,
  type FaceMatchResult,
} from './face-match';
import { checkHolder, type HolderCheck } from './holder-check';
import type { BackendPreference } from './human-runtime';
import { defaultClipLivenessOptions, type ConsistencyOptions } from './liveness-3d';
import type { ActiveLivenessOptions } from './liveness-signals';
import { verifyManifest, type ModelManifest } from './manifest';
import { assessQuality, defaultQualityGate, type QualityGate } from './quality';
import type {
  FaceObservation,
  PhotoAnalysis,
  VideoAnalysis,
  VideoObservation,
  VisionThresholds,
} from './types';
import { defaultVideoDecodeOptions, type VideoDecodeOptions } from './video-decode';
import { observeVideoInPool } from './video-fanout';
import { decidePhoto, decideVideo, type DecisionSettings } from './vision-decisions';
import { WorkerPool } from './worker-pool';

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

/**
 * The committed age heads an operator can choose from (ATTESTLY_AGE_MODEL): 'combined' (the default) reads Human's
 * faceres descriptor and age output and one age network fine-tuned here (issue 22), and approves more adults than
 * 'faceres' on every source and for every group at the same bounds; 'faceres' reads faceres alone (the default
 * until 2026-11-28), for about a sixth less CPU per photo; 'networks' reads the two age networks alone, better on
 * UTKFace-like faces and worse on East Asian adults. MODEL_CARD.md gives each set of figures.
 */
export const ageHeads = {
  faceres: weightsJson as unknown as AgeHeadWeights,
  networks: networksWeightsJson as unknown as AgeHeadWeights,
  combined: combinedWeightsJson as unknown as AgeHeadWeights,
} as const;
export type AgeModel = keyof typeof ageHeads;
/** The head that decides when the operator names none (ATTESTLY_AGE_MODEL's default; config-env.ts). */
export const defaultAgeModel = 'combined' satisfies AgeModel;
/** The default head's weights: what the engine decides with unless it is given others. */
export const committedWeights = ageHeads[defaultAgeModel];
export const modelManifest = manifestJson as ModelManifest;

export function createVisionEngine(options: VisionEngineOptions = {}): VisionEngine {
  const gate: QualityGate = { ...defaultQualityGate, ...options.qualityGate };
  const settings: DecisionSettings = {
    decision: { ...defaultDecisionConfig, ...options.decision },
    gate,
    liveness: {
      ...defaultClipLivenessOptions,
      ...options.liveness,
      consistency: { ...defaultClipLivenessOptions.consistency, ...options.liveness?.consistency },
    },
    weights: options.weights === undefined ? committedWeights : options.weights,
    defaultThresholds: options.defaultThresholds ?? [18, 21],
  };
  const video: VideoDecodeOptions = { ...defaultVideoDecodeOptions, ...options.video };
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
      workerData: {
        backend: options.backend ?? 'auto',
        video,
        // The workers run the age networks only for a head that reads them, and faceres for the age only for a head
        // that reads it (MODEL_CARD.md, issue 22).
        ageModels: ageModelsRead(settings.weights?.features),
      },
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
    return decidePhoto(await observePhoto(bytes), opts, settings, t0);
  }

  async function observeVideo(bytes: Uint8Array): Promise<VideoObservation & { decodeMs: number }> {
    return observeVideoInPool(await usePool(), bytes, video);
  }

  async function analyzeVideo(bytes: Uint8Array, opts: VisionThresholds = {}): Promise<VideoAnalysis> {
    const t0 = performance.now();
    return decideVideo(await observeVideo(bytes), opts, settings, t0).analysis;
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
    checkHolder: (document, videoBytes, opts) =>
      checkHolder(
        {
          describePortrait: (image) =>
            usePool().then((p) => p.run('descriptor', image) as Promise<FaceObservation>),
          observeVideo,
          decideVideo: (obs, thresholds, t0) => decideVideo(obs, thresholds, settings, t0),
          gate,
          faceMatch,
        },
        document,
        videoBytes,
        opts,
      ),
    readDocument,
    close: async () => {
      await pool?.close();
      await closeDocumentReader();
    },
  };
}

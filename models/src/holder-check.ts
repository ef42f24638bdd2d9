import { median } from './calibration';
import { documentImageBytes } from './document/read-document';
import { VisionInputError } from './errors';
import { cosineSimilarity, type FaceMatchConfig } from './face-match';
import { assessQuality, type QualityGate } from './quality';
import type { FaceObservation, VideoAnalysis, VideoObservation, VisionThresholds } from './types';
import { round3 } from './vision-decisions';

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

/** What the holder check takes from the engine that runs it. */
export interface HolderCheckParts {
  /** The portrait's face and descriptor (a pool job). */
  describePortrait(image: Uint8Array): Promise<FaceObservation>;
  observeVideo(bytes: Uint8Array): Promise<VideoObservation & { decodeMs: number }>;
  decideVideo(
    obs: VideoObservation & { decodeMs: number },
    opts: VisionThresholds,
    t0: number,
  ): { analysis: VideoAnalysis; usable: FaceObservation[] };
  gate: QualityGate;
  faceMatch: FaceMatchConfig;
}

/**
 * Binds a document to the person holding it (VisionEngine.checkHolder): the portrait on the document and the live
 * video are analysed in parallel, then the portrait is compared with each usable frame of the video. Problems with
 * either input come back in the answer; anything else is thrown.
 */
export async function checkHolder(
  parts: HolderCheckParts,
  document: Uint8Array,
  videoBytes: Uint8Array,
  opts: VisionThresholds = {},
): Promise<HolderCheck> {
  const { describePortrait, observeVideo, decideVideo, gate, faceMatch } = parts;
  const t0 = performance.now();
  const image = documentImageBytes(document);
  const [portraitResult, videoResult] = await Promise.allSettled([
    image ? describePortrait(image) : Promise.reject(new VisionInputError('unreadable_image')),
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

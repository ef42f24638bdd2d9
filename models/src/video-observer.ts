import { VisionInputError } from './errors';
import { detectFaces, measureQuality, observeSubject, subjectFaces } from './face-observer';
import type { HumanInstance, HumanRuntime } from './human-runtime';
import type { RgbImage } from './image-decode';
import { anchorPatches, eyePatches, eyeTexture, faceThumbnail, trackLandmarks } from './track-features';
import { eyeAspectRatio } from './liveness-signals';
import { assessQuality } from './quality';
import type { FaceObservation, FrameScan, VideoObservation } from './types';
import { decodeVideo, defaultVideoDecodeOptions, type VideoDecodeOptions } from './video-decode';

const DEG = 180 / Math.PI;

/** Age models run on this many of the sharpest, most frontal frames; more frames cost ~110 ms each. */
export const BEST_FRAMES = 3;

/**
 * The landmark pass (detector + mesh + iris, no age models) over frames of a clip: yaw and eye aspect ratio for
 * the liveness challenge, and a rank for picking the frames the age models run on. Each frame is measured on its
 * own (Human's frame cache is off), so frames can be split across workers and merged in time order with the same
 * result as one pass.
 */
export async function scanFrames(
  human: HumanInstance,
  frames: readonly { timeSeconds: number; image: RgbImage }[],
): Promise<FrameScan[]> {
  const scans: FrameScan[] = [];
  for (const frame of frames) {
    const faces = subjectFaces(await detectFaces(human, frame.image, 'landmarks'));
    const face = faces.length === 1 ? faces[0]! : undefined;
    if (!face) {
      scans.push({
        frame: {
          timeSeconds: frame.timeSeconds,
          faces: faces.length,
          yawDeg: null,
          pitchDeg: null,
          eyeAspectRatio: null,
          qualityScore: null,
          rollDeg: null,
          landmarks: null,
          eyeTexture: null,
          faceThumb: null,
          eyePatch: null,
          anchorPatch: null,
        },
        rank: null,
      });
      continue;
    }
    const quality = assessQuality(await measureQuality(frame.image, face));
    const angle = face.rotation?.angle;
    scans.push({
      frame: {
        timeSeconds: frame.timeSeconds,
        faces: 1,
        yawDeg: angle ? angle.yaw * DEG : null,
        pitchDeg: angle ? angle.pitch * DEG : null,
        eyeAspectRatio: eyeAspectRatio(face.mesh),
        qualityScore: quality.score,
        rollDeg: angle ? angle.roll * DEG : null,
        landmarks: trackLandmarks(face.mesh),
        eyeTexture: eyeTexture(frame.image, face.mesh),
        faceThumb: faceThumbnail(frame.image, face.box),
        eyePatch: eyePatches(frame.image, face.mesh),
        anchorPatch: anchorPatches(frame.image, face.mesh),
      },
      // Frontal, sharp, eyes-open frames make the age estimate; the turned and blinking ones prove liveness.
      rank: quality.score + (0.001 * quality.metrics.sharpness) / 100,
    });
  }
  return scans;
}

/**
 * Checks the scanned clip shows one person and returns the indices of the frames the age models should see: the
 * best frame of each of `count` equal stretches of the clip (so the descriptors they yield span the whole clip and
 * a cross-fade from one photo to another shows as a change of identity), then, for stretches without a usable
 * face, the best remaining frames. Ties go to the earlier frame, so the choice never depends on how the frames
 * were split.
 */
export function chooseBestFrames(scans: readonly FrameScan[], count = BEST_FRAMES): number[] {
  const withFace = scans.filter((s) => s.frame.faces >= 1).length;
  if (!withFace)
    throw new VisionInputError(
      'no_face',
      'No face was found in the video. Make sure your face is centred and well lit, then record again.',
    );
  const multi = scans.filter((s) => s.frame.faces > 1).length;
  if (multi > scans.length / 2) {
    throw new VisionInputError(
      'multiple_faces',
      'More than one face was found in the video. Make sure only you are in view, then record again.',
    );
  }
  const ranked = scans
    .map((s, index) => ({ index, rank: s.rank }))
    .filter((c): c is { index: number; rank: number } => c.rank !== null)
    .sort((a, b) => b.rank - a.rank || a.index - b.index);
  const chosen: number[] = [];
  for (let k = 0; k < count; k++) {
    const lo = Math.floor((k * scans.length) / count);
    const hi = Math.floor(((k + 1) * scans.length) / count);
    const best = ranked.find((c) => c.index >= lo && c.index < hi);
    if (best) chosen.push(best.index);
  }
  for (const c of ranked) {
    if (chosen.length >= count) break;
    if (!chosen.includes(c.index)) chosen.push(c.index);
  }
  return chosen;
}

/**
 * One of a video's best frames with every model: age, the descriptor (one person across the clip) and the passive
 * antispoof/liveness cues (liveness-3d.ts passiveCue). The one-worker path below and the engine's fanned-out `frame`
 * jobs both read a best frame through this.
 */
export function observeBestFrame(
  runtime: Pick<HumanRuntime, 'human' | 'faceres' | 'ageCnn' | 'ageReadsFaceres' | 'ageNetworksMirror'>,
  image: RgbImage,
): Promise<FaceObservation> {
  return observeSubject(runtime, image, 'full', { age: true, identity: true });
}

export function noClearFace(): VisionInputError {
  return new VisionInputError(
    'no_face',
    'No clear face was found in the video. Make sure your face is centred and well lit, then record again.',
  );
}

/**
 * The whole video analysis in one thread: decode → landmark pass on every frame → age models on the best frames.
 * The engine runs the same steps fanned out over its worker pool.
 */
export async function observeVideo(
  runtime: Pick<HumanRuntime, 'human' | 'faceres' | 'ageCnn' | 'ageReadsFaceres' | 'ageNetworksMirror'>,
  bytes: Uint8Array,
  options: VideoDecodeOptions = defaultVideoDecodeOptions,
): Promise<VideoObservation & { decodeMs: number }> {
  const t0 = performance.now();
  const video = await decodeVideo(bytes, options);
  const decodeMs = performance.now() - t0;
  const scans = await scanFrames(runtime.human, video.frames);
  const chosen = chooseBestFrames(scans);
  const best: { observation: FaceObservation; timeSeconds: number }[] = [];
  for (const index of chosen) {
    try {
      best.push({
        observation: await observeBestFrame(runtime, video.frames[index]!.image),
        timeSeconds: video.frames[index]!.timeSeconds,
      });
    } catch (error) {
      if (!(error instanceof VisionInputError)) throw error;
    }
  }
  if (!best.length) throw noClearFace();
  return {
    durationSeconds: video.durationSeconds,
    frames: scans.map((s) => s.frame),
    best: best.map((b) => b.observation),
    bestTimes: best.map((b) => b.timeSeconds),
    decodeMs,
  };
}

import { VisionInputError } from './errors';
import { detectFaces, measureQuality, observeSubject, subjectFaces } from './face-observer';
import type { HumanInstance } from './human-runtime';
import { eyeAspectRatio } from './liveness-signals';
import { assessQuality } from './quality';
import type { FaceObservation, FrameObservation, VideoObservation } from './types';
import { decodeVideo, defaultVideoDecodeOptions, type VideoDecodeOptions } from './video-decode';

const DEG = 180 / Math.PI;

/** Age models run on this many of the sharpest, most frontal frames; more frames cost ~110 ms each. */
const BEST_FRAMES = 3;

export async function observeVideo(
  human: HumanInstance,
  bytes: Uint8Array,
  options: VideoDecodeOptions = defaultVideoDecodeOptions,
): Promise<VideoObservation & { decodeMs: number }> {
  const t0 = performance.now();
  const video = await decodeVideo(bytes, options);
  const decodeMs = performance.now() - t0;
  const frames: FrameObservation[] = [];
  const candidates: { index: number; score: number }[] = [];
  for (const [index, frame] of video.frames.entries()) {
    const faces = subjectFaces(await detectFaces(human, frame.image, 'landmarks'));
    const face = faces.length === 1 ? faces[0]! : undefined;
    if (!face) {
      frames.push({
        timeSeconds: frame.timeSeconds,
        faces: faces.length,
        yawDeg: null,
        pitchDeg: null,
        eyeAspectRatio: null,
        qualityScore: null,
      });
      continue;
    }
    const quality = assessQuality(await measureQuality(frame.image, face));
    const angle = face.rotation?.angle;
    frames.push({
      timeSeconds: frame.timeSeconds,
      faces: 1,
      yawDeg: angle ? angle.yaw * DEG : null,
      pitchDeg: angle ? angle.pitch * DEG : null,
      eyeAspectRatio: eyeAspectRatio(face.mesh),
      qualityScore: quality.score,
    });
    // Frontal, sharp, eyes-open frames make the age estimate; the turned and blinking ones prove liveness.
    candidates.push({ index, score: quality.score + (0.001 * quality.metrics.sharpness) / 100 });
  }
  const withFace = frames.filter((f) => f.faces >= 1).length;
  if (!withFace)
    throw new VisionInputError(
      'no_face',
      'No face was found in the video. Make sure your face is centred and well lit, then record again.',
    );
  const multi = frames.filter((f) => f.faces > 1).length;
  if (multi > frames.length / 2) {
    throw new VisionInputError(
      'multiple_faces',
      'More than one face was found in the video. Make sure only you are in view, then record again.',
    );
  }
  const chosen = candidates.sort((a, b) => b.score - a.score).slice(0, BEST_FRAMES);
  const best: FaceObservation[] = [];
  for (const c of chosen) {
    try {
      best.push(await observeSubject(human, video.frames[c.index]!.image));
    } catch (error) {
      if (!(error instanceof VisionInputError)) throw error;
    }
  }
  if (!best.length)
    throw new VisionInputError(
      'no_face',
      'No clear face was found in the video. Make sure your face is centred and well lit, then record again.',
    );
  return { durationSeconds: video.durationSeconds, frames, best, decodeMs };
}

/**
 * Typed failures of the vision engine. `message` is written for the person in front of the camera: the API
 * shows it as `detail` (DESIGN.md §3), so it must say what to do next, never how the code failed.
 */

export type VisionInputCode =
  | 'unreadable_image'
  | 'no_face'
  | 'multiple_faces'
  | 'poor_quality'
  | 'video_too_long'
  | 'unreadable_video'
  | 'unreadable_document'
  | 'analysis_timeout';

export type QualityReason = 'blur' | 'too_dark' | 'too_bright' | 'low_contrast' | 'face_too_small' | 'pose';

const qualityAdvice: Record<QualityReason, string> = {
  blur: 'the photo is blurred — hold the camera still',
  too_dark: 'your face is too dark — face a light source',
  too_bright: 'your face is over-exposed — move away from direct light',
  low_contrast: 'the image is washed out — avoid backlight and clean the lens',
  face_too_small: 'your face is too small — move closer to the camera',
  pose: 'your head is turned — look straight at the camera',
};

const baseMessages: Record<VisionInputCode, string> = {
  unreadable_image: 'The image could not be read. Please upload a JPEG, PNG or WebP photo and try again.',
  no_face: 'No face was found. Make sure your face is centred and well lit, then retake the photo.',
  multiple_faces:
    'More than one face was found. Make sure only you are in the picture, then retake the photo.',
  poor_quality: 'The photo is not clear enough to estimate your age. Please retake it.',
  video_too_long: 'The video is longer than 5 seconds. Please record a video of at most 5 seconds.',
  unreadable_video: 'The video could not be read. Please record it again (WebM or MP4, at most 5 seconds).',
  unreadable_document: 'The document could not be read. Please upload a clear JPEG, PNG, WebP or PDF scan.',
  analysis_timeout: 'The analysis took too long. Please try again.',
};

export class VisionInputError extends Error {
  override readonly name = 'VisionInputError';
  constructor(
    readonly code: VisionInputCode,
    message: string = baseMessages[code],
    readonly reasons: QualityReason[] = [],
  ) {
    super(message);
  }

  static poorQuality(reasons: QualityReason[]): VisionInputError {
    const advice = reasons.map((r) => qualityAdvice[r]).join('; ');
    const message = advice
      ? `The photo is not clear enough to estimate your age: ${advice}. Please retake it.`
      : baseMessages.poor_quality;
    return new VisionInputError('poor_quality', message, reasons);
  }
}

/** The pool is saturated; the API answers 503 with `Retry-After: retryAfterSeconds`. */
export class VisionBusyError extends Error {
  override readonly name = 'VisionBusyError';
  constructor(readonly retryAfterSeconds: number) {
    super('The verification service is busy. Please try again in a few seconds.');
  }
}

/** A model file differs from models/manifest.json: the engine refuses to start rather than run unknown weights. */
export class ModelIntegrityError extends Error {
  override readonly name = 'ModelIntegrityError';
}

/** Serialised form that crosses the worker boundary (structured clone drops class identity). */
export interface SerialisedError {
  name: string;
  message: string;
  code?: VisionInputCode;
  reasons?: QualityReason[];
}

export function serialiseError(error: unknown): SerialisedError {
  if (error instanceof VisionInputError) {
    return { name: error.name, message: error.message, code: error.code, reasons: error.reasons };
  }
  const e = error instanceof Error ? error : new Error(String(error));
  return { name: e.name, message: e.message };
}

export function reviveError(e: SerialisedError): Error {
  if (e.name === 'VisionInputError' && e.code)
    return new VisionInputError(e.code, e.message, e.reasons ?? []);
  const error = new Error(e.message);
  error.name = e.name;
  return error;
}

import { expectedAge, runAgeCnn } from './age-cnn';
import { VisionInputError } from './errors';
import { runFaceres, type FaceresTf } from './faceres-features';
import type { HumanFace, HumanInstance, HumanRuntime, HumanTensor } from './human-runtime';
import { describePassConfig, fullPassConfig, landmarkPassConfig } from './human-runtime';
import { greyFaceCrop, padImage, type RgbImage } from './image-decode';
import { eyeAspectRatio } from './liveness-signals';
import { laplacianVariance, luminanceStats } from './quality';
import type { FaceObservation, QualityMetrics } from './types';

const DEG = 180 / Math.PI;

/**
 * Faces that count as "another person": a background face much smaller than the subject's is a passer-by in a
 * selfie, not a second applicant, and is ignored rather than failing the attempt.
 */
export function subjectFaces<T extends { score: number; box: [number, number, number, number] }>(
  faces: T[],
): T[] {
  const sized = faces.filter((f) => f.score >= 0.5);
  if (!sized.length) return [];
  const largest = Math.max(...sized.map((f) => Math.min(f.box[2], f.box[3])));
  return sized
    .filter((f) => Math.min(f.box[2], f.box[3]) >= 0.5 * largest)
    .sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]);
}

export async function detectFaces(
  human: HumanInstance,
  image: RgbImage,
  pass: 'full' | 'describe' | 'landmarks',
): Promise<HumanFace[]> {
  const { tf } = human;
  // Float32 from the start: Human casts int32 input to float32 anyway, and tfjs converting a Uint8Array to an
  // int32 tensor plus that cast cost ~12 ms of a ~50 ms landmark pass on a 640-px frame (same values either way).
  const t3 = tf.tensor3d(Float32Array.from(image.data), [image.height, image.width, 3], 'float32');
  const input = tf.expandDims(t3, 0);
  t3.dispose();
  try {
    const config = { full: fullPassConfig, describe: describePassConfig, landmarks: landmarkPassConfig }[
      pass
    ];
    const result = await human.detect(input, config);
    if (result.error) throw new Error(result.error);
    return result.face;
  } finally {
    input.dispose();
  }
}

export async function measureQuality(image: RgbImage, face: HumanFace): Promise<QualityMetrics> {
  const grey = await greyFaceCrop(image, face.box);
  const lum = luminanceStats(grey);
  const angle = face.rotation?.angle;
  return {
    sharpness: Math.round(laplacianVariance(grey, 128, 128) * 10) / 10,
    brightness: Math.round(lum.mean * 10) / 10,
    contrast: Math.round(lum.std * 10) / 10,
    clippedDark: Math.round(lum.clippedDark * 1000) / 1000,
    clippedBright: Math.round(lum.clippedBright * 1000) / 1000,
    faceSize: Math.round(Math.min(face.box[2], face.box[3])),
    yawDeg: Math.round((angle?.yaw ?? 0) * DEG * 10) / 10,
    pitchDeg: Math.round((angle?.pitch ?? 0) * DEG * 10) / 10,
  };
}

/**
 * The one subject face of a still image and the image it was found in: the image itself, or — when a tightly
 * cropped portrait (ID photo, aligned crop) leaves the detector no context — the image with a grey border, `offset`
 * pixels wide. Throws `no_face` / `multiple_faces`. Every face crop tensor the passes returned is pushed to `crops`,
 * for the caller to dispose whatever happens.
 */
export async function findSubject(
  human: HumanInstance,
  image: RgbImage,
  pass: 'full' | 'describe',
  crops: HumanTensor[],
): Promise<{
  face: HumanFace & { tensor: NonNullable<HumanFace['tensor']> };
  used: RgbImage;
  offset: number;
}> {
  const detect = async (img: RgbImage) => {
    const found = await detectFaces(human, img, pass);
    for (const f of found) if (f.tensor) crops.push(f.tensor);
    return subjectFaces(found);
  };
  let faces = await detect(image);
  let used = image;
  let offset = 0;
  if (!faces.length) {
    const padded = await padImage(image, 0.25);
    faces = await detect(padded.image);
    used = padded.image;
    offset = padded.offset;
  }
  if (!faces.length) throw new VisionInputError('no_face');
  if (faces.length > 1) throw new VisionInputError('multiple_faces');
  const face = faces[0]!;
  if (!face.tensor) throw new VisionInputError('no_face');
  return { face: face as HumanFace & { tensor: NonNullable<HumanFace['tensor']> }, used, offset };
}

/** What a pass computes beyond detection: the age networks (`age`) and faceres's descriptor (`identity`). */
export interface ObservationNeeds {
  age: boolean;
  identity: boolean;
}

/**
 * Observes the one subject face of a still image with every model ('full') or without the passive antispoof and
 * liveness models ('describe': their fields read NaN). Throws `no_face` / `multiple_faces` so the caller never
 * estimates an age from the wrong person.
 */
export async function observeSubject(
  runtime: Pick<HumanRuntime, 'human' | 'faceres' | 'ageCnn' | 'ageReadsFaceres' | 'ageNetworksMirror'>,
  image: RgbImage,
  pass: 'full' | 'describe' = 'full',
  want: ObservationNeeds = { age: true, identity: pass === 'describe' },
): Promise<FaceObservation> {
  const { human } = runtime;
  // Every face of a describe/full pass carries its crop tensor: all of them are disposed here, whatever happens.
  const crops: HumanTensor[] = [];
  try {
    const { face, used, offset } = await findSubject(human, image, pass, crops);
    const tf = human.tf as unknown as FaceresTf;
    const ageDistribution =
      want.age && runtime.ageCnn.length
        ? await runAgeCnn(tf, runtime.ageCnn, face.tensor, runtime.ageNetworksMirror)
        : undefined;
    // faceres (identity) runs where faces are compared, or for the age when the head reads it.
    const res =
      want.identity || !ageDistribution || (want.age && runtime.ageReadsFaceres)
        ? await runFaceres(tf, runtime.faceres, face.tensor)
        : undefined;
    const modelAge = ageDistribution ? expectedAge(ageDistribution) : (res?.age ?? NaN);
    if ((res && res.descriptor.length === 0) || !Number.isFinite(modelAge))
      throw new VisionInputError('no_face');
    const quality = await measureQuality(used, face);
    const angle = face.rotation?.angle;
    const [x, y, w, h] = face.box;
    return {
      box: [x - offset, y - offset, w, h],
      imageWidth: image.width,
      imageHeight: image.height,
      detectionScore: face.score,
      modelAge,
      ...(ageDistribution ? { ageDistribution } : {}),
      ...(ageDistribution && res ? { faceresAge: res.age } : {}),
      descriptor: res?.descriptor ?? [],
      ageFeatures: res?.ageFeatures ?? [],
      antispoof: pass === 'full' ? (face.real ?? 0) : NaN,
      liveness: pass === 'full' ? (face.live ?? 0) : NaN,
      yawDeg: (angle?.yaw ?? 0) * DEG,
      pitchDeg: (angle?.pitch ?? 0) * DEG,
      rollDeg: (angle?.roll ?? 0) * DEG,
      eyeAspectRatio: eyeAspectRatio(face.mesh) ?? 0,
      quality,
      padded: offset > 0,
    };
  } finally {
    for (const t of crops) t.dispose();
  }
}

import sharp from 'sharp';
import { VisionInputError } from './errors';
import { QUALITY_CROP_SIZE, faceCropRegion } from './quality';

export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Larger photos gain nothing (the detector works at 256 px) and cost memory in every worker. */
const MAX_SIDE = 1280;

/**
 * Decodes JPEG/PNG/WebP (whatever libvips reads) to RGB, applying the EXIF orientation so a phone photo taken
 * upright is upright here too. Truncated or corrupt files fail instead of decoding to half a grey picture.
 */
export async function decodeImage(bytes: Uint8Array): Promise<RgbImage> {
  if (!bytes.length) throw new VisionInputError('unreadable_image');
  try {
    const { data, info } = await sharp(bytes, { failOn: 'truncated', limitInputPixels: 50_000_000 })
      .rotate()
      .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`unexpected ${info.channels} channels`);
    return {
      data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      width: info.width,
      height: info.height,
    };
  } catch {
    throw new VisionInputError('unreadable_image');
  }
}

/** Pads an image on every side with mid-grey: aligned, tightly cropped faces are otherwise missed by the detector. */
export async function padImage(image: RgbImage, ratio: number): Promise<{ image: RgbImage; offset: number }> {
  const pad = Math.round(Math.max(image.width, image.height) * ratio);
  const { data, info } = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: 3 },
  })
    .extend({ top: pad, bottom: pad, left: pad, right: pad, background: { r: 128, g: 128, b: 128 } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    image: {
      data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      width: info.width,
      height: info.height,
    },
    offset: pad,
  };
}

/** The face box as a QUALITY_CROP_SIZE² grey patch for the pure metrics in quality.ts. */
export async function greyFaceCrop(
  image: RgbImage,
  box: [number, number, number, number],
): Promise<Uint8Array> {
  const region = faceCropRegion(box, image.width, image.height);
  const { data } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .extract(region)
    .resize(QUALITY_CROP_SIZE, QUALITY_CROP_SIZE, { fit: 'fill' })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

import sharp, { type Metadata } from 'sharp';
import { AppError } from '../errors';

/**
 * Pictures that people upload (profile photos, site icons) are decoded and drawn again before anything stores or
 * serves them: a file that does not decode is refused, a decompression bomb is refused before its pixels are
 * allocated, the result has bounded dimensions, and nothing of the original file — EXIF camera and GPS tags,
 * comments, trailing bytes — survives, because sharp writes no metadata unless asked to.
 */
export interface ReencodeOptions {
  /** The longest side of the stored picture, in pixels (larger pictures are scaled down, never up). */
  maxDimension: number;
  /** Pictures with more pixels than this are refused without being decoded (16000×16000 is 256 megapixels). */
  maxInputPixels?: number;
  /** The message shown when the file is not a picture that can be read. */
  unreadableMessage: string;
  /** The form field the file came in, for the error's `errors[].path`. */
  field: string;
}

export interface ReencodedImage {
  bytes: Buffer;
  contentType: 'image/webp';
  width: number;
  height: number;
}

/** 24 megapixels: more than any phone photo or icon needs, far less than a bomb asks for. */
const DEFAULT_MAX_INPUT_PIXELS = 24_000_000;

export async function reencodeImage(input: Buffer, options: ReencodeOptions): Promise<ReencodedImage> {
  const refuse = (message: string) =>
    new AppError(422, 'validation.failed', message, [{ path: options.field, message }]);
  const maxInputPixels = options.maxInputPixels ?? DEFAULT_MAX_INPUT_PIXELS;
  let header: Metadata;
  try {
    // Reading the header alone costs nothing and tells the pixel count before any decoding.
    header = await sharp(input, { failOn: 'error' }).metadata();
  } catch {
    throw refuse(options.unreadableMessage);
  }
  const pages = header.pages ?? 1;
  if (!header.width || !header.height) throw refuse(options.unreadableMessage);
  if (header.width * header.height * pages > maxInputPixels) {
    throw refuse(
      `The picture is too large (${header.width}×${header.height} pixels); use one under ${Math.floor(maxInputPixels / 1_000_000)} megapixels`,
    );
  }
  try {
    // `failOn: 'error'` refuses truncated and corrupt data instead of drawing what could be read; the first frame of
    // an animation is kept; `rotate()` applies the EXIF orientation before the EXIF is dropped.
    const { data, info } = await sharp(input, { failOn: 'error', limitInputPixels: maxInputPixels, pages: 1 })
      .rotate()
      .resize({
        width: options.maxDimension,
        height: options.maxDimension,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .webp({ quality: 85 })
      .toBuffer({ resolveWithObject: true });
    return { bytes: data, contentType: 'image/webp', width: info.width, height: info.height };
  } catch {
    throw refuse(options.unreadableMessage);
  }
}

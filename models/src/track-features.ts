import type { RgbImage } from './image-decode';

/**
 * What the video observer keeps of each frame for the 3-D consistency checks (liveness-3d.ts): a subset of the face
 * mesh, the eyes' texture, and small grey images of the face and the eyes, base64-encoded so a track can be stored.
 */

export type Point = readonly number[];

/**
 * The face-mesh points (MediaPipe indices) kept per frame for the 3-D consistency checks: the midline from forehead
 * to chin (nose tip and bridge at very different depths), brows, eye corners, nose wings, cheeks, mouth and the jaw
 * and cheek contour. Points at different depths are what makes a real turn impossible to explain by a 2-D warp.
 */
export const TRACK_LANDMARKS = [
  10, 151, 9, 168, 6, 197, 195, 5, 4, 1, 2, 0, 13, 14, 17, 199, 175, 152, 70, 300, 105, 334, 107, 336, 33,
  133, 362, 263, 98, 327, 129, 358, 50, 280, 36, 266, 205, 425, 61, 291, 234, 454, 127, 356, 93, 323, 132,
  361, 58, 288, 172, 397, 136, 365, 149, 378,
] as const;

/** Eye-opening contours (16 points each). */
const RIGHT_EYE_CONTOUR = [33, 7, 163, 144, 145, 153, 154, 155, 133, 173, 157, 158, 159, 160, 161, 246];
const LEFT_EYE_CONTOUR = [263, 249, 390, 373, 374, 380, 381, 382, 362, 398, 384, 385, 386, 387, 388, 466];

/** The tracked subset of a 468/478-point mesh, rounded to 0.1 px; null when the mesh is incomplete. */
export function trackLandmarks(mesh: readonly Point[]): number[][] | null {
  const out: number[][] = [];
  for (const m of TRACK_LANDMARKS) {
    const p = mesh[m];
    if (!p || p.length < 3 || !p.every(Number.isFinite)) return null;
    out.push([p[0]!, p[1]!, p[2]!].map((v) => Math.round(v * 10) / 10));
  }
  return out;
}

/**
 * Mean absolute grey-level gradient (|∂x| + |∂y|, 0–255 scale) along both lid lines: the inner half of each eye's
 * width, ±12 % of the width around the middle of its contour. Iris and lids when open, the lash line when shut keep
 * it well above zero; a flat patch painted over the eye leaves only codec noise.
 */
export function eyeTexture(image: RgbImage, mesh: readonly Point[]): number | null {
  let sum = 0;
  let count = 0;
  for (const contour of [RIGHT_EYE_CONTOUR, LEFT_EYE_CONTOUR]) {
    const pts = contour.map((i) => mesh[i]);
    if (pts.some((p) => !p)) return null;
    const xs = pts.map((p) => p![0]!);
    const ys = pts.map((p) => p![1]!);
    const x0 = Math.min(...xs);
    const x1 = Math.max(...xs);
    const width = x1 - x0;
    if (!(width > 2)) return null;
    // The lid line (open or shut) runs through the middle of the contour; keep to the inner half of the eye's width
    // and a band of ±12 % of it around that line, so the edge of anything painted over the eye stays outside.
    const cy = (Math.min(...ys) + Math.max(...ys)) / 2;
    const half = Math.max(2, 0.12 * width);
    const left = Math.max(1, Math.round(x0 + 0.25 * width));
    const right = Math.min(image.width - 2, Math.round(x1 - 0.25 * width));
    const top = Math.max(1, Math.round(cy - half));
    const bottom = Math.min(image.height - 2, Math.round(cy + half));
    const grey = (x: number, y: number) => {
      const o = (y * image.width + x) * 3;
      return 0.299 * image.data[o]! + 0.587 * image.data[o + 1]! + 0.114 * image.data[o + 2]!;
    };
    for (let y = top; y <= bottom; y++) {
      for (let x = left; x <= right; x++) {
        const g = grey(x, y);
        sum += Math.abs(grey(x + 1, y) - g) + Math.abs(grey(x, y + 1) - g);
        count++;
      }
    }
  }
  return count ? Math.round((sum / count) * 100) / 100 : null;
}

/** Bilinear grey sample of an RGB frame (clamped to the frame). */
function greyAt(image: RgbImage, x: number, y: number): number {
  const cx = Math.min(image.width - 1.001, Math.max(0, x));
  const cy = Math.min(image.height - 1.001, Math.max(0, y));
  const x0 = Math.floor(cx);
  const y0 = Math.floor(cy);
  const fx = cx - x0;
  const fy = cy - y0;
  const g = (xx: number, yy: number) => {
    const o = (yy * image.width + xx) * 3;
    return 0.299 * image.data[o]! + 0.587 * image.data[o + 1]! + 0.114 * image.data[o + 2]!;
  };
  return (
    (1 - fy) * ((1 - fx) * g(x0, y0) + fx * g(x0 + 1, y0)) +
    fy * ((1 - fx) * g(x0, y0 + 1) + fx * g(x0 + 1, y0 + 1))
  );
}

export const THUMB_SIZE = 48;
export const EYE_PATCH = { width: 24, height: 14 };

/**
 * A 48 × 48 grey thumbnail of the face box grown by 10 % on each side (base64 of the bytes, row-major): what the
 * photometric check compares between frames, since a warped photo keeps its pixels while a turning head changes
 * its shading and hides or shows parts of itself.
 */
export function faceThumbnail(image: RgbImage, box: readonly number[]): string {
  const [bx, by, bw, bh] = box as [number, number, number, number];
  const x0 = bx - 0.1 * bw;
  const y0 = by - 0.1 * bh;
  const out = new Uint8Array(THUMB_SIZE * THUMB_SIZE);
  for (let j = 0; j < THUMB_SIZE; j++)
    for (let i = 0; i < THUMB_SIZE; i++)
      out[j * THUMB_SIZE + i] = Math.round(
        greyAt(image, x0 + ((i + 0.5) / THUMB_SIZE) * 1.2 * bw, y0 + ((j + 0.5) / THUMB_SIZE) * 1.2 * bh),
      );
  return Buffer.from(out).toString('base64');
}

/**
 * Grey patches (24 × 14 each, right eye then left, base64) around both eyes, placed by the eye corners: 1.5 eye
 * widths wide and 0.9 tall, centred between the corners. Corners stay put when a real eye shuts, so the patch
 * shows the lash line and lids; a painted patch shows as a flat middle.
 */
export function eyePatches(image: RgbImage, mesh: readonly Point[]): string | null {
  const out = new Uint8Array(2 * EYE_PATCH.width * EYE_PATCH.height);
  let k = 0;
  for (const [a, b] of [
    [33, 133],
    [362, 263],
  ] as const) {
    const p = mesh[a];
    const q = mesh[b];
    if (!p || !q) return null;
    const w = Math.hypot(q[0]! - p[0]!, q[1]! - p[1]!);
    if (!(w > 2)) return null;
    const mx = (p[0]! + q[0]!) / 2;
    const my = (p[1]! + q[1]!) / 2;
    for (let j = 0; j < EYE_PATCH.height; j++)
      for (let i = 0; i < EYE_PATCH.width; i++)
        out[k++] = Math.round(
          greyAt(
            image,
            mx + ((i + 0.5) / EYE_PATCH.width - 0.5) * 1.5 * w,
            my + ((j + 0.5) / EYE_PATCH.height - 0.5) * 0.9 * w,
          ),
        );
  }
  return Buffer.from(out).toString('base64');
}

/**
 * Points on the face's midline at clearly different depths, whose grey neighbourhoods are kept per frame at the
 * frame's own resolution (`anchorPatches`): the nose tip (1), the bridge between the brows (168) and the middle of
 * the upper lip (0). A real head turning moves the nose tip sideways further than the other two (it is nearer the
 * camera); a photo bent by any 2-D warp moves points of one column alike.
 */
export const ANCHOR_POINTS = [1, 168, 0] as const;
export const ANCHOR_PATCH = 32;
/** An anchor patch spans this share of the face's width (mesh points 234 → 454), around the anchor. */
export const ANCHOR_SPAN = 0.4;

/** The face's width in frame pixels from its cheek contour (mesh points 234 and 454); null when implausible. */
export function faceWidth(left: Point | undefined, right: Point | undefined): number | null {
  if (!left || !right) return null;
  const width = Math.hypot(right[0]! - left[0]!, right[1]! - left[1]!);
  return width > 8 ? width : null;
}

/**
 * Grey patches (32 × 32 each, base64, in `ANCHOR_POINTS` order) centred on the midline anchors, each spanning 0.4
 * face widths: finer than the 48-pixel face thumbnail, so a nose tip's parallax of a few per cent of the face's
 * width spans pixels, not fractions of one (depth-anchors.ts).
 */
export function anchorPatches(image: RgbImage, mesh: readonly Point[]): string | null {
  const width = faceWidth(mesh[234], mesh[454]);
  if (width === null) return null;
  const step = (ANCHOR_SPAN * width) / ANCHOR_PATCH;
  const out = new Uint8Array(ANCHOR_POINTS.length * ANCHOR_PATCH * ANCHOR_PATCH);
  let k = 0;
  for (const m of ANCHOR_POINTS) {
    const p = mesh[m];
    if (!p) return null;
    for (let j = 0; j < ANCHOR_PATCH; j++)
      for (let i = 0; i < ANCHOR_PATCH; i++)
        out[k++] = Math.round(
          greyAt(
            image,
            p[0]! + (i + 0.5 - ANCHOR_PATCH / 2) * step,
            p[1]! + (j + 0.5 - ANCHOR_PATCH / 2) * step,
          ),
        );
  }
  return Buffer.from(out).toString('base64');
}

/** The bytes of a thumbnail or eye patch stored as base64 (`faceThumbnail`, `eyePatches`). */
export const decodeGrey = (b64: string) => Uint8Array.from(Buffer.from(b64, 'base64'));

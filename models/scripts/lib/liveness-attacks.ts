/**
 * Presentation-attack clips made from still photos, for the liveness tests and `make-liveness-attacks.ts`. Every
 * clip here is an ATTACK: a head turn rendered from a photo is not a live person, however it looks.
 *
 * A clip is rendered frame by frame on a square RGB canvas (default 320 px, 10 fps, 5 s): the photo (or a blend of
 * two), optionally eyes painted or pasted shut for a few frames, then a geometric warp sampled bilinearly, then
 * print-style degradations and a little sensor noise; ffmpeg encodes it (H.264 MP4 or VP8 WebM).
 */
import { execFileSync } from 'node:child_process';
import sharp from 'sharp';
import { ffmpegPath } from '../../src/video-decode';
import { mulberry32 } from './linear-models';

export interface Rgb {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Where the face lies on the canvas: centre, width, each eye's box (corners and lids), a skin colour. */
export interface FaceGeometry {
  cx: number;
  cy: number;
  width: number;
  eyes: { x0: number; x1: number; top: number; bottom: number }[];
  skin: [number, number, number];
}

export const ATTACK_KINDS = [
  'still_loop',
  'plane_turn',
  'piecewise_turn',
  'cylinder_turn',
  'cross_fade',
  'zoom_pan',
  'print_turn',
] as const;
export type AttackKind = (typeof ATTACK_KINDS)[number];

export const ATTACK_DESCRIPTIONS: Record<AttackKind, string> = {
  still_loop: 'a still photo looped for 5 s (sensor noise only)',
  plane_turn:
    'the photo turned as a flat card in front of the camera (whole-image homography, ±20–35°) both ways, flat skin ovals painted over the eyes for 4 frames',
  piecewise_turn:
    'the reported attack: one half squeezed and the other stretched (piecewise affine, 2 s each way), flat skin ovals over the eyes for 4 frames',
  cylinder_turn:
    'the face wrapped on a cylinder and rotated ±20–30° (smooth per-column warp), eyes pasted shut with lid skin and a lash line for 3 frames',
  cross_fade:
    'a cross-fade from one photo to another person over 1.5 s, with the half-squeeze turn and pasted shut eyes',
  zoom_pan: 'the photo zoomed (to 1.3×) and panned, pasted shut eyes for 3 frames',
  print_turn:
    'a printed-photo look (washed-out colours, blur, paper grain, halftone) held and tilted like a card, pasted shut eyes',
};

export interface AttackSpec {
  kind: AttackKind;
  /** Seed for the per-clip variations (amplitudes, timings, noise). */
  seed: number;
  seconds?: number;
  fps?: number;
  /** Warp strength: squeeze share for the piecewise kinds, degrees for the turned ones (default: seeded). */
  amplitude?: number;
  /** Turn one way only (the reported attack: one half squeezed, the other stretched, for 2 s of the loop). */
  oneWay?: boolean;
  /** When the eyes are painted or pasted shut (seconds; default: seeded between 1.5 and 3.5 s). */
  blinkAt?: number;
}

/**
 * Puts a photo on a square canvas the way a camera would see it: the photo covers the canvas when it is a
 * webcam-style frame; a tight face crop (`tight`) is shown at 70 % of the canvas over a blurred enlargement of
 * itself, so the detector has some context around the face.
 */
export async function canvasFromPhoto(photo: Buffer, size = 320, tight = false): Promise<Rgb> {
  if (!tight) {
    const { data } = await sharp(photo)
      .rotate()
      .resize(size, size, { fit: 'cover' })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data: new Uint8Array(data), width: size, height: size };
  }
  const inner = Math.round(size * 0.7);
  const back = await sharp(photo).rotate().resize(size, size, { fit: 'cover' }).blur(12).toBuffer();
  const face = await sharp(photo).rotate().resize(inner, inner, { fit: 'cover' }).toBuffer();
  const off = Math.round((size - inner) / 2);
  const { data } = await sharp(back)
    .composite([{ input: face, left: off, top: off }])
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: size, height: size };
}

/** Geometry from a face mesh (MediaPipe indices) found on the canvas. */
export function geometryFromMesh(mesh: readonly (readonly number[])[], image: Rgb): FaceGeometry {
  const p = (i: number) => mesh[i]!;
  const eye = (idx: number[]) => {
    const xs = idx.map((i) => p(i)[0]!);
    const ys = idx.map((i) => p(i)[1]!);
    return {
      x0: Math.round(Math.min(...xs)),
      x1: Math.round(Math.max(...xs)),
      top: Math.round(Math.min(...ys)),
      bottom: Math.round(Math.max(...ys)),
    };
  };
  const left = p(234);
  const right = p(454);
  const cheek = p(50);
  const o = (Math.round(cheek[1]!) * image.width + Math.round(cheek[0]!)) * 3;
  return {
    cx: (left[0]! + right[0]!) / 2,
    cy: p(1)[1]!,
    width: Math.hypot(right[0]! - left[0]!, right[1]! - left[1]!),
    eyes: [
      eye([33, 7, 163, 144, 145, 153, 154, 155, 133, 173, 157, 158, 159, 160, 161, 246]),
      eye([263, 249, 390, 373, 374, 380, 381, 382, 362, 398, 384, 385, 386, 387, 388, 466]),
    ],
    skin: [image.data[o]!, image.data[o + 1]!, image.data[o + 2]!],
  };
}

/** Flat skin-coloured ovals over both eyes (the reported attack's "blink"). */
function paintFlatEyes(img: Rgb, g: FaceGeometry): void {
  for (const e of g.eyes) {
    const cx = (e.x0 + e.x1) / 2;
    const cy = (e.top + e.bottom) / 2;
    const rx = (e.x1 - e.x0) / 2 + 4;
    const ry = Math.max((e.bottom - e.top) / 2 + 4, rx * 0.45);
    for (let y = Math.floor(cy - ry); y <= Math.ceil(cy + ry); y++)
      for (let x = Math.floor(cx - rx); x <= Math.ceil(cx + rx); x++) {
        if (x < 0 || y < 0 || x >= img.width || y >= img.height) continue;
        if (((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 > 1) continue;
        const o = (y * img.width + x) * 3;
        img.data.set(g.skin, o);
      }
  }
}

/**
 * Eyes pasted shut: skin sampled just below each eye fills an oval over it, shaded darker towards the top like a
 * lid, with a dark lash line drawn across the middle, the best a paste can do against a texture check.
 */
function pasteClosedEyes(img: Rgb, g: FaceGeometry): void {
  for (const e of g.eyes) {
    const cx = (e.x0 + e.x1) / 2;
    const cy = (e.top + e.bottom) / 2;
    const rx = (e.x1 - e.x0) / 2 + 3;
    const ry = Math.max((e.bottom - e.top) / 2 + 3, rx * 0.45);
    const sy = Math.min(img.height - 1, Math.round(cy + ry + 3));
    for (let y = Math.floor(cy - ry); y <= Math.ceil(cy + ry); y++)
      for (let x = Math.floor(cx - rx); x <= Math.ceil(cx + rx); x++) {
        if (x < 0 || y < 0 || x >= img.width || y >= img.height) continue;
        const d = ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2;
        if (d > 1) continue;
        const src = (sy * img.width + x) * 3;
        const shade = 0.85 + 0.15 * ((y - (cy - ry)) / (2 * ry));
        const lash = Math.abs(y - (cy + 0.15 * ry)) < 1.2 && d < 0.8 ? 0.45 : 1;
        for (let c = 0; c < 3; c++)
          img.data[(y * img.width + x) * 3 + c] = Math.round(img.data[src + c]! * shade * lash);
      }
  }
}

/** Bilinear resampling through an inverse map (output pixel → source position); outside the source is grey. */
function warp(src: Rgb, inverse: (x: number, y: number) => [number, number]): Rgb {
  const { width: W, height: H, data } = src;
  const out = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const [sx, sy] = inverse(x, y);
      const o = (y * W + x) * 3;
      if (!(sx >= 0 && sy >= 0 && sx < W - 1 && sy < H - 1)) {
        out[o] = out[o + 1] = out[o + 2] = 110;
        continue;
      }
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      const i00 = (y0 * W + x0) * 3;
      const i10 = i00 + 3;
      const i01 = i00 + W * 3;
      const i11 = i01 + 3;
      for (let c = 0; c < 3; c++)
        out[o + c] = Math.round(
          (1 - fy) * ((1 - fx) * data[i00 + c]! + fx * data[i10 + c]!) +
            fy * ((1 - fx) * data[i01 + c]! + fx * data[i11 + c]!),
        );
    }
  return { data: out, width: W, height: H };
}

/** A smooth turn script: 0 → +amp → 0 over [t0, t0 + d], then 0 → −amp → 0 over [t1, t1 + d]. */
function turnScript(amp: number, t0: number, t1: number, d: number): (t: number) => number {
  return (t) =>
    t >= t0 && t < t0 + d
      ? amp * Math.sin(((t - t0) / d) * Math.PI)
      : t >= t1 && t < t1 + d
        ? -amp * Math.sin(((t - t1) / d) * Math.PI)
        : 0;
}

/** Renders the frames of one attack clip. `photos[1]` is the second person of a cross-fade. */
export function renderAttack(
  spec: AttackSpec,
  photos: readonly { image: Rgb; geometry: FaceGeometry }[],
): Rgb[] {
  const fps = spec.fps ?? 10;
  const seconds = spec.seconds ?? 5;
  const r = mulberry32(spec.seed);
  const { image: base, geometry: g } = photos[0]!;
  const W = base.width;
  const H = base.height;
  const n = Math.round(seconds * fps);
  const seededBlink = 1.5 + r() * 2; // the blink lands between 1.5 s and 3.5 s
  const blinkAt = spec.blinkAt ?? seededBlink;
  const blinkFrames = spec.kind === 'plane_turn' || spec.kind === 'piecewise_turn' ? 4 : 3;
  const seededAmp = 0.3 + 0.15 * r();
  const amp = spec.amplitude ?? seededAmp;
  const t0 = 0.4 + 0.3 * r();
  const t1 = 2.6 + 0.3 * r();
  const turn = turnScript(1, t0, spec.oneWay ? Infinity : t1, 2);
  const angle = (spec.amplitude ?? 30 + 15 * r()) * (Math.PI / 180);
  const grain = Float32Array.from({ length: W * H }, () => (r() - 0.5) * 18);
  const frames: Rgb[] = [];
  for (let f = 0; f < n; f++) {
    const t = f / fps;
    let img: Rgb = { data: Uint8Array.from(base.data), width: W, height: H };
    if (spec.kind === 'cross_fade' && photos[1]) {
      const a = Math.min(1, Math.max(0, (t - 1.75) / 1.5));
      const other = photos[1].image.data;
      for (let i = 0; i < img.data.length; i++)
        img.data[i] = Math.round((1 - a) * img.data[i]! + a * other[i]!);
    }
    const blinking =
      spec.kind !== 'still_loop' &&
      f >= Math.round(blinkAt * fps) &&
      f < Math.round(blinkAt * fps) + blinkFrames;
    if (blinking) {
      if (spec.kind === 'plane_turn' || spec.kind === 'piecewise_turn') paintFlatEyes(img, g);
      else pasteClosedEyes(img, g);
    }
    const s = turn(t);
    switch (spec.kind) {
      case 'piecewise_turn':
      case 'cross_fade': {
        // One half squeezed, the other stretched, about the face's centre line.
        const k = amp * s;
        const left = 1 - k;
        const right = 1 + k;
        img = warp(img, (x, y) => [x < g.cx ? g.cx - (g.cx - x) / left : g.cx + (x - g.cx) / right, y]);
        break;
      }
      case 'plane_turn':
      case 'print_turn': {
        // A flat card turned about the vertical axis through the face centre, seen by a camera at 2 canvas widths.
        const th = angle * s * (spec.kind === 'print_turn' ? 0.8 : 1);
        const fl = 2 * W;
        const wobble = spec.kind === 'print_turn' ? 2 * Math.sin(t * 7) : 0;
        img = warp(img, (x, y) => {
          const u = x - g.cx;
          const sx = (fl * u) / (fl * Math.cos(th) - u * Math.sin(th));
          const sy = ((y - g.cy) * (fl + sx * Math.sin(th))) / fl;
          return [g.cx + sx, g.cy + sy + wobble];
        });
        break;
      }
      case 'cylinder_turn': {
        const R = g.width * 0.55;
        const th = angle * s;
        img = warp(img, (x, y) => {
          if (Math.abs(x - g.cx) >= R) return [x, y];
          const phi = Math.asin((x - g.cx) / R) - th;
          return [g.cx + R * Math.sin(Math.max(-Math.PI / 2, Math.min(Math.PI / 2, phi))), y];
        });
        break;
      }
      case 'zoom_pan': {
        const z = 1 + 0.3 * (t / seconds);
        const px = 20 * Math.sin((t / seconds) * 2 * Math.PI);
        const py = 10 * Math.sin((t / seconds) * 4 * Math.PI);
        img = warp(img, (x, y) => [g.cx + (x - g.cx - px) / z, g.cy + (y - g.cy - py) / z]);
        break;
      }
      case 'still_loop':
        break;
    }
    if (spec.kind === 'print_turn') {
      // Washed-out print: lower contrast and saturation, warm paper, halftone dots and grain.
      const d = img.data;
      for (let i = 0, p = 0; i < d.length; i += 3, p++) {
        const x = p % W;
        const y = Math.floor(p / W);
        const grey = 0.299 * d[i]! + 0.587 * d[i + 1]! + 0.114 * d[i + 2]!;
        const dot = ((x + y) % 4 < 2 ? 6 : -6) + grain[p]!;
        const warm = [12, 6, -8];
        for (let c = 0; c < 3; c++) {
          const v = 0.7 * (0.6 * d[i + c]! + 0.4 * grey) + 0.3 * 170 + warm[c]! + dot;
          d[i + c] = Math.max(0, Math.min(255, Math.round(v)));
        }
      }
    }
    // Sensor noise, different in every frame.
    for (let i = 0; i < img.data.length; i++)
      img.data[i] = Math.max(0, Math.min(255, img.data[i]! + Math.round((r() - 0.5) * 4)));
    frames.push(img);
  }
  return frames;
}

/** Encodes RGB frames: H.264 MP4 (fast, what the eval uses) or VP8 WebM (what browsers record). */
export function encodeFrames(frames: readonly Rgb[], fps = 10, format: 'mp4' | 'webm' = 'mp4'): Buffer {
  const { width, height } = frames[0]!;
  const codec =
    format === 'mp4'
      ? ['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '20', '-movflags', '+faststart', '-f', 'mp4']
      : ['-c:v', 'libvpx', '-b:v', '1M', '-deadline', 'realtime', '-cpu-used', '8', '-f', 'webm'];
  const out = format === 'mp4' ? ['-'] : ['pipe:1'];
  if (format === 'mp4') {
    // MP4 needs a seekable output for its index: use fragmented MP4 on a pipe.
    codec.splice(codec.indexOf('-movflags') + 1, 1, 'frag_keyframe+empty_moov');
  }
  return execFileSync(
    ffmpegPath(),
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-s',
      `${width}x${height}`,
      '-r',
      String(fps),
      '-i',
      'pipe:0',
      ...codec,
      '-pix_fmt',
      'yuv420p',
      ...out,
    ],
    {
      input: Buffer.concat(
        frames.map((f) => Buffer.from(f.data.buffer, f.data.byteOffset, f.data.byteLength)),
      ),
      maxBuffer: 256 * 2 ** 20,
    },
  );
}

/** The appliance takes ≤ 5 s: genuine clips are cut to their first 5 s and at most 640 px wide (H.264, no audio). */
export function trimmedGenuineClip(file: string): Buffer {
  return execFileSync(
    ffmpegPath(),
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-i',
      file,
      '-t',
      '5',
      '-an',
      '-vf',
      "scale='min(640,iw)':-2",
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-crf',
      '18',
      '-movflags',
      'frag_keyframe+empty_moov',
      '-f',
      'mp4',
      '-',
    ],
    { maxBuffer: 1 << 28 },
  );
}

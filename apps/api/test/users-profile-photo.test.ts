import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '@attestly/contracts';
import { createTestApp, rowCounts, signUp, type TestApp } from './helpers';

// The profile photo upload; the rest of the profile is in users-profile.test.ts.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Real, minimal images: a 1×1 PNG and GIF. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
/** Starts like a camera's JPEG (SOI + JFIF APP0) and then is noise: the type sniffer says JPEG, no decoder reads it. */
const FAKE_JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0', 'latin1'),
  Buffer.from([0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]),
  randomBytes(64),
  Buffer.from([0xff, 0xd9]),
]);

/** A real 1200×800 camera-style JPEG carrying EXIF with a GPS position and free text. */
async function cameraJpeg(): Promise<Buffer> {
  return sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 200, g: 90, b: 40 } } })
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Make: 'AcmeCam', Model: 'Spy 3000', ImageDescription: 'home address: 1 Secret Lane' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 0/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 0/1',
      },
    })
    .toBuffer();
}

/**
 * A valid PNG of 16000×16000 one-bit pixels, all zero: a few tens of kilobytes on the wire, 768 MB once a browser
 * decodes it to RGB.
 */
function pngBomb(side = 16_000): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = (crcTable[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  // Each row: filter byte 0, then side/8 bytes of pixels.
  const rows = Buffer.alloc((side / 8 + 1) * side);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
  'latin1',
);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'utf8');
const padded = (image: Buffer, size: number) => Buffer.concat([image, Buffer.alloc(size - image.length)]);

function upload(token: string, bytes: Buffer, filename: string, contentType = 'image/jpeg', field = 'photo') {
  return t.request
    .post('/api/v1/users/profile/photo')
    .set(bearer(token))
    .attach(field, bytes, { filename, contentType });
}

async function photoRows(userId: string) {
  return t.db.models.UserPhoto.count({ where: { user_id: userId } });
}

describe('POST /users/profile/photo', () => {
  it('accepts a PNG named .jpg, stores it re-encoded and serves it back at profile_image_url', async () => {
    const { token, user } = await signUp(t);
    const response = await upload(token, PNG, 'me.jpg', 'image/jpeg').expect(200);
    expect(response.body.profile_image_url).toMatch(/^\/api\/v1\/media\/profile-photos\/[\w-]{32}$/);
    const photo = await t.request.get(response.body.profile_image_url).buffer(true).expect(200);
    expect(photo.headers['content-type']).toBe('image/webp');
    expect(photo.headers['x-content-type-options']).toBe('nosniff');
    expect(photo.headers['content-security-policy']).toContain('sandbox');
    expect(await sharp(photo.body as Buffer).metadata()).toMatchObject({
      format: 'webp',
      width: 1,
      height: 1,
    });
    const profile = await t.request.get('/api/v1/users/profile').set(bearer(token)).expect(200);
    expect(profile.body.profile_image_url).toBe(response.body.profile_image_url);
    expect(
      await t.db.models.AuditLog.count({
        where: { user_id: user.id, event_type: 'user.profile_photo_updated' },
      }),
    ).toBe(1);
  });

  it('accepts a camera JPEG and a GIF, scaled to at most 512 pixels, as WebP without any metadata', async () => {
    const { token } = await signUp(t);
    const jpeg = await cameraJpeg();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    expect(jpeg.includes(Buffer.from('Secret Lane'))).toBe(true);
    const cases: Array<[Buffer, number, number]> = [
      [jpeg, LIMITS.profilePhotoPixels, Math.round((LIMITS.profilePhotoPixels * 800) / 1200)],
      [GIF, 1, 1],
    ];
    for (const [bytes, width, height] of cases) {
      const response = await upload(token, bytes, 'upload.bin', 'application/octet-stream').expect(200);
      const photo = await t.request.get(response.body.profile_image_url).buffer(true).expect(200);
      expect(photo.headers['content-type']).toBe('image/webp');
      const served = await sharp(photo.body as Buffer).metadata();
      expect(served).toMatchObject({ format: 'webp', width, height });
      expect(served.exif).toBeUndefined();
      expect((photo.body as Buffer).includes(Buffer.from('Secret Lane'))).toBe(false);
      expect((photo.body as Buffer).includes(Buffer.from('AcmeCam'))).toBe(false);
    }
  });

  it.each([
    ['a JPEG header followed by noise', async () => FAKE_JPEG, 'fake.jpg'],
    ['a truncated JPEG', async () => (await cameraJpeg()).subarray(0, 4000), 'cut.jpg'],
  ])('refuses %s with 422 and stores nothing', async (_name, make, filename) => {
    const { token, user } = await signUp(t);
    const bytes = await make();
    const before = await rowCounts(t);
    const response = await upload(token, bytes, filename).expect(422);
    expect(response.body).toMatchObject({
      code: 'validation.failed',
      detail: 'Profile photo must be a JPG, GIF or PNG image',
      errors: [{ path: 'photo', message: 'Profile photo must be a JPG, GIF or PNG image' }],
    });
    expect(await rowCounts(t)).toEqual(before);
    expect(await photoRows(user.id)).toBe(0);
  });

  it('refuses a 16000×16000 picture that fits in a few kilobytes, without decoding it', async () => {
    const { token, user } = await signUp(t);
    const bomb = pngBomb();
    expect(bomb.length).toBeLessThan(LIMITS.profilePhotoBytes);
    const response = await upload(token, bomb, 'bomb.png', 'image/png').expect(422);
    expect(response.body.detail).toMatch(/too large \(16000×16000 pixels\)/);
    expect(await photoRows(user.id)).toBe(0);
  });

  it('gives a new upload a new URL and retires the old one', async () => {
    const { token, user } = await signUp(t);
    const first = await upload(token, PNG, 'a.png').expect(200);
    const second = await upload(token, GIF, 'b.gif').expect(200);
    expect(second.body.profile_image_url).not.toBe(first.body.profile_image_url);
    const gone = await t.request.get(first.body.profile_image_url).expect(404);
    expect(gone.body.code).toBe('not_found');
    await t.request.get(second.body.profile_image_url).expect(200);
    expect(await photoRows(user.id)).toBe(1);
  });

  it('accepts exactly 1 MB', async () => {
    const { token } = await signUp(t);
    await upload(token, padded(PNG, LIMITS.profilePhotoBytes), 'big.png').expect(200);
  });

  it('refuses 1 MB and one byte with 413 and stores nothing', async () => {
    const { token, user } = await signUp(t);
    const before = await rowCounts(t);
    const response = await upload(token, padded(PNG, LIMITS.profilePhotoBytes + 1), 'big.png').expect(413);
    expect(response.body).toMatchObject({
      code: 'upload.too_large',
      detail: 'Profile photo must be 1MB or smaller',
    });
    expect(response.body.request_id).toEqual(expect.any(String));
    expect(await rowCounts(t)).toEqual(before);
    expect(await photoRows(user.id)).toBe(0);
  });

  it('refuses a far larger upload with 413 before reading it', async () => {
    const { token, user } = await signUp(t);
    const response = await upload(token, padded(PNG, 5 * LIMITS.profilePhotoBytes), 'huge.png').expect(413);
    expect(response.body.code).toBe('upload.too_large');
    expect(await photoRows(user.id)).toBe(0);
  });

  it.each([
    ['a PDF renamed .png', PDF, 'scan.png', 'image/png'],
    ['an SVG with a script', SVG, 'logo.png', 'image/png'],
    ['random bytes', randomBytes(2048), 'noise.jpg', 'image/jpeg'],
  ])('refuses %s with 415 and stores nothing', async (_name, bytes, filename, type) => {
    const { token, user } = await signUp(t);
    const before = await rowCounts(t);
    const response = await upload(token, bytes, filename, type).expect(415);
    expect(response.body).toMatchObject({
      code: 'upload.unsupported_type',
      detail: 'Profile photo must be a JPG, GIF or PNG image',
    });
    expect(await rowCounts(t)).toEqual(before);
    expect((await t.db.models.User.findByPk(user.id))?.profile_photo_key).toBeNull();
  });

  it('refuses an empty file with 422', async () => {
    const { token, user } = await signUp(t);
    const response = await upload(token, Buffer.alloc(0), 'empty.png').expect(422);
    expect(response.body).toMatchObject({ code: 'upload.empty', detail: 'The uploaded file is empty' });
    expect(await photoRows(user.id)).toBe(0);
  });

  it('refuses a form without a photo, a file under another name and a non-multipart body', async () => {
    const { token, user } = await signUp(t);
    const none = await t.request
      .post('/api/v1/users/profile/photo')
      .set(bearer(token))
      .field('note', 'hello')
      .expect(422);
    expect(none.body.errors).toEqual([{ path: 'photo', message: 'Please choose a photo to upload' }]);
    const other = await upload(token, PNG, 'a.png', 'image/png', 'avatar').expect(400);
    expect(other.body.code).toBe('upload.unexpected_field');
    await t.request
      .post('/api/v1/users/profile/photo')
      .set(bearer(token))
      .send({ photo: PNG.toString('base64') })
      .expect(415);
    expect(await photoRows(user.id)).toBe(0);
  });

  it('requires a user session', async () => {
    await t.request.post('/api/v1/users/profile/photo').attach('photo', PNG, 'a.png').expect(401);
  });

  it('answers 404 for an unknown or malformed photo key', async () => {
    await t.request.get(`/api/v1/media/profile-photos/${randomBytes(24).toString('base64url')}`).expect(404);
    await t.request.get('/api/v1/media/profile-photos/..%2F..%2Fetc%2Fpasswd').expect(404);
  });
});

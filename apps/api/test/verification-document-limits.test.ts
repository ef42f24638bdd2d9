import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { documentFile } from './verification-document-setup';
import { bearer, newUser, passportImage, stored, textPdf } from './verification-media';

/**
 * POST /users/verify/document with files it must refuse or read by their content, not their name: the size limit,
 * type sniffing, empty, missing and truncated files and an unknown document type, none of which stores anything.
 * The real MRZ reader on its own app and engine (verification-document.test.ts covers reading and review).
 */
let t: TestApp;
const file = documentFile();
const { passport, upload } = file;

beforeAll(async () => {
  t = await file.start({ holder: false });
}, 120_000);
afterAll(async () => {
  await file.close();
});

describe('document upload limits and bad files', () => {
  let token: string;
  beforeAll(async () => {
    token = (await newUser(t)).token;
  });

  it('refuses a file over 10 MB with the spec message', async () => {
    const big = Buffer.alloc(11 * 1024 * 1024, 0x41);
    big.write('%PDF-1.4\n', 0);
    const response = await upload(token, big, 'big.pdf').catch(
      (error: { response?: { status: number; body: unknown } }) => error.response,
    );
    expect(response?.status).toBe(413);
    expect(response?.body).toMatchObject({ detail: 'File size must be less than 10MB' });
  });

  it('sniffs the type by content: a PDF named .jpg is read as a PDF and a JPEG named .pdf as an image', async () => {
    const named = await upload(token, textPdf(), 'passport.jpg').expect(422);
    expect(named.body.detail).toMatch(/PDF has no scanned image/);
    const image = await upload(token, await passportImage(passport(33)), 'passport.pdf').expect(201);
    expect(image.body.document_analysis).toMatchObject({ check_digits_valid: true, calculated_age: 33 });
  }, 60_000);

  it('refuses text, an empty file, a missing file and a truncated image without storing anything', async () => {
    const before = await stored(t);
    const text = await upload(token, Buffer.from('hello, this is not a document'), 'passport.jpg').expect(
      415,
    );
    expect(text.body.detail).toBe('Please upload an image (JPEG, PNG or WebP) or a PDF');
    const empty = await upload(token, Buffer.alloc(0), 'passport.jpg').expect(422);
    expect(empty.body.detail).toBe('The uploaded file is empty');
    const missing = await t.request
      .post('/api/v1/users/verify/document')
      .set(bearer(token))
      .field('document_type', 'passport')
      .expect(422);
    expect(missing.body.detail).toBe('Please select a document to upload');
    const jpeg = await passportImage(passport(30));
    const truncated = await upload(
      token,
      jpeg.subarray(0, Math.floor(jpeg.length / 3)),
      'passport.jpg',
    ).expect(422);
    expect(truncated.body.code).toBe('verification.unreadable_document');
    const badType = await upload(token, jpeg, 'passport.jpg', { document_type: 'library_card' }).expect(422);
    expect(badType.body.detail).toMatch(/^document_type must be one of/);
    expect(await stored(t)).toEqual(before);
  }, 60_000);
});

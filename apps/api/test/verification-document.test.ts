import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVisionEngine, type VisionEngine } from '@attestly/models';
import { createTestApp, type TestApp } from './helpers';
import {
  bearer,
  checkDigit,
  newUser,
  passportImage,
  pdfWithJpeg,
  stored,
  td3,
  textPdf,
  yymmdd,
} from './verification-media';

/**
 * POST /users/verify/document with the real MRZ reader on generated passport pages (GBR, valid check digits),
 * the review path with encrypted media, and the purge job. One engine and one app for the whole file.
 */
let engine: VisionEngine;
let t: TestApp;

beforeAll(async () => {
  engine = createVisionEngine({ workers: 1 });
  t = await createTestApp({ vision: engine, env: { ATTESTLY_TRUST_PROXY: 'true' } });
  await engine.ready;
});
afterAll(async () => {
  await t?.close();
  await engine?.close();
});

const passport = (birthYearsAgo: number, expiryYears = 5) => {
  const now = t.clock.now();
  return td3({
    state: 'GBR',
    surname: 'HOLMES',
    given: 'SARAH JANE',
    number: 'GB1234567',
    birth: yymmdd(now, -birthYearsAgo, -10),
    sex: 'F',
    expiry: yymmdd(now, expiryYears),
  });
};

const upload = (
  token: string,
  file: Buffer,
  name: string,
  fields: Record<string, string> = { document_type: 'passport' },
) => {
  let request = t.request.post('/api/v1/users/verify/document').set(bearer(token));
  for (const [key, value] of Object.entries(fields)) request = request.field(key, value);
  return request.attach('file', file, name);
};

describe('MRZ check digits used to render test documents', () => {
  it('match the ICAO 9303 specimen', () => {
    // ICAO 9303 part 4 appendix A: document number L898902C3 → 6, birth 740812 → 2, expiry 120415 → 9.
    expect(checkDigit('L898902C3')).toBe('6');
    expect(checkDigit('740812')).toBe('2');
    expect(checkDigit('120415')).toBe('9');
  });
});

describe('document verification', () => {
  it('approves an adult from a readable, valid passport and records the age it proves', async () => {
    const { token } = await newUser(t);
    const before = await stored(t);
    const response = await upload(token, await passportImage(passport(30)), 'passport.jpg').expect(201);
    expect(response.body).toMatchObject({ status: 'approved', needs_manual_review: false });
    expect(response.body.document_analysis).toMatchObject({
      document_type: 'passport',
      mrz_document_code: 'P',
      country_detected: 'GBR',
      format_valid: true,
      check_digits_valid: true,
      not_expired: true,
      authentic: null,
      calculated_age: 30,
      threshold_met: true,
      document_number_last4: '4567',
    });
    expect(response.body.document_analysis.authenticity_note).toMatch(/Not checked/);
    expect(response.body.verification.confidence_score).toBeLessThanOrEqual(0.8);
    const status = await t.request.get('/api/v1/users/verification-status').set(bearer(token)).expect(200);
    expect(status.body).toMatchObject({ age_verified: true, proven_min_age: 30 });
    // A clean read keeps no media.
    expect((await stored(t)).media).toBe(before.media);
  }, 60_000);

  it('rejects a minor against the requested threshold and an expired passport', async () => {
    const { token } = await newUser(t);
    const minor = await upload(token, await passportImage(passport(16)), 'passport.png', {
      document_type: 'passport',
      age_threshold: '18',
    }).expect(201);
    expect(minor.body).toMatchObject({
      status: 'rejected',
      document_analysis: { calculated_age: 16, threshold_met: false },
    });
    expect(minor.body.message).toBe('The document shows that you are under 18.');
    const expired = await upload(token, await passportImage(passport(40, -1)), 'passport.jpg').expect(201);
    expect(expired.body).toMatchObject({ status: 'rejected', document_analysis: { not_expired: false } });
    expect(expired.body.message).toMatch(/expired/);
    const status = await t.request.get('/api/v1/users/verification-status').set(bearer(token)).expect(200);
    expect(status.body.age_verified).toBe(false);
  }, 60_000);

  it('reads a passport scan embedded in a PDF', async () => {
    const { token } = await newUser(t);
    const pdf = pdfWithJpeg(await passportImage(passport(45)), 1250, 880);
    const response = await upload(token, pdf, 'scan.pdf').expect(201);
    expect(response.body).toMatchObject({ status: 'approved', document_analysis: { calculated_age: 45 } });
  }, 60_000);

  it('sends an unreadable page to manual review, keeping the upload encrypted until the review', async () => {
    const { token, user } = await newUser(t);
    const page = await passportImage(['THIS PAGE HAS NO', 'MACHINE READABLE ZONE'], 'png');
    const response = await upload(token, page, 'page.png').expect(201);
    expect(response.body).toMatchObject({ status: 'pending', needs_manual_review: true });
    expect(response.body.message).toMatch(/reviewer will check it/);
    const id = response.body.verification_id as string;

    const [media] = await t.db.models.VerificationMedia.findAll({ where: { verification_id: id } });
    expect(media).toBeDefined();
    expect(media?.byte_length).toBe(page.length);
    expect(media?.ciphertext.length).toBe(page.length);
    expect(media?.ciphertext.equals(page)).toBe(false);
    expect(media?.ciphertext.includes(page.subarray(0, 16))).toBe(false);
    const opened = await t.services.verifications.reviewMedia(id);
    expect(opened[0]?.bytes.equals(page)).toBe(true);
    expect(opened[0]?.contentType).toBe('image/png');

    const status = await t.request.get('/api/v1/users/verification-status').set(bearer(token)).expect(200);
    expect(status.body).toMatchObject({ age_verified: false, pending_reviews: 1 });

    const reviewed = await t.services.verifications.review(
      id,
      { approve: true, notes: 'Checked the passport by hand', adminUserId: 'admin-1' },
      { ip: '127.0.0.1', userAgent: 'test' },
    );
    expect(reviewed.status).toBe('approved');
    expect(await t.db.models.VerificationMedia.count({ where: { verification_id: id } })).toBe(0);
    const after = await t.services.verifications.status(user.id);
    expect(after).toMatchObject({ age_verified: true, proven_min_age: 18, pending_reviews: 0 });
    const row = await t.db.models.Verification.findByPk(id);
    expect(row?.review_notes.map((note) => note.note)).toEqual([
      expect.stringMatching(/no machine-readable zone/),
      'Checked the passport by hand',
    ]);
  }, 60_000);

  it('purges kept media once the retention limit passes without a review', async () => {
    const { token } = await newUser(t);
    const response = await upload(token, await passportImage(passport(30)), 'passport.jpg', {
      document_type: 'passport',
      verification_type: 'identity',
    }).expect(201);
    expect(response.body).toMatchObject({ status: 'pending', needs_manual_review: true });
    const id = response.body.verification_id as string;
    expect(await t.db.models.VerificationMedia.count({ where: { verification_id: id } })).toBe(1);
    expect(await t.services.verifications.purgeMedia()).toBe(0);
    t.clock.advance(t.config.mediaRetentionMs + 60_000);
    expect(await t.services.verifications.purgeMedia()).toBeGreaterThanOrEqual(1);
    expect(await t.db.models.VerificationMedia.count()).toBe(0);
    const row = await t.db.models.Verification.findByPk(id);
    expect(row?.status).toBe('pending');
    expect(row?.review_notes.at(-1)?.note).toMatch(/retention limit/);
  }, 60_000);
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
    expect(image.body.status).toBe('approved');
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

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from './admin-helpers';
import type { TestApp } from './helpers';
import { clip, documentFile, holderFace, withHolder } from './verification-document-setup';
import {
  ADULT_FEMALE_30S,
  ADULT_MALE_40S,
  bearer,
  checkDigit,
  fixture,
  newUser,
  passportImage,
  passportWithPortrait,
  pdfWithJpeg,
  stillVideo,
  stored,
} from './verification-media';

/**
 * POST /users/verify/document with the real MRZ reader and face models on generated passport pages (valid check
 * digits), bound to the holder by a live challenge video (issue 14), the review path with encrypted media, and the
 * purge job. One engine and one app for the whole file. The live video is a genuine recording of a real person
 * (genuineRecording: five seconds of ../shared/data/live-videos/live_022.mp4) and her test passport carries a frame
 * of it as its portrait; where the folder is absent, the tests that need it skip. Each video answers a liveness
 * challenge (issue 23) that the app draws from a seeded source, reseeded before each upload to the seed whose
 * challenge the recording's motions answer (the appliance has no such switch).
 */
let t: TestApp;
const file = documentFile();
const { passport, upload, holderPassport, holderIdCard } = file;

beforeAll(async () => {
  t = await file.start();
}, 120_000);
afterAll(async () => {
  await file.close();
});

describe('MRZ check digits used to render test documents', () => {
  it('match the ICAO 9303 specimen', () => {
    // ICAO 9303 part 4 appendix A: document number L898902C3 → 6, birth 740812 → 2, expiry 120415 → 9.
    expect(checkDigit('L898902C3')).toBe('6');
    expect(checkDigit('740812')).toBe('2');
    expect(checkDigit('120415')).toBe('9');
  });
});

describe('document verification', () => {
  it.skipIf(!withHolder)(
    'approves an adult whose live video matches the portrait of a valid passport, and records the age it proves',
    async () => {
      const { token } = await newUser(t);
      const before = await stored(t);
      const page = await holderPassport(holderFace, { number: 'GB1234567' });
      const response = await upload(token, page, 'passport.jpg', undefined, clip).expect(201);
      expect(response.body).toMatchObject({ status: 'approved', needs_manual_review: false });
      expect(response.body.document_analysis.holder_binding).toMatchObject({
        portrait_found: true,
        live_video: 'passed',
        face_match: { match: true },
        printed_fields: { date_of_birth: 'agrees' },
        bound: true,
        review_reasons: [],
      });
      // How many other accounts use the document is for reviewers only (issue 21 item 13).
      expect(response.body.document_analysis.holder_binding).not.toHaveProperty(
        'document_used_by_other_accounts',
      );
      expect(response.body.document_analysis.holder_binding.face_match.similarity).toBeGreaterThanOrEqual(
        response.body.document_analysis.holder_binding.face_match.threshold,
      );
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
      // A clean read keeps no media, and the document number is kept only as a keyed hash.
      expect((await stored(t)).media).toBe(before.media);
      const row = await t.db.models.Verification.findByPk(response.body.verification_id as string);
      expect(row?.subject_fingerprint).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row?.toJSON())).not.toContain('GB1234567');
    },
    120_000,
  );

  it.skipIf(!withHolder)(
    'approves her national identity card (TD1, three MRZ lines) in the same way',
    async () => {
      const { token } = await newUser(t);
      const card = await holderIdCard(holderFace, 'L01X00T47');
      const response = await upload(token, card, 'id-card.jpg', { document_type: 'id_card' }, clip).expect(
        201,
      );
      expect(response.body).toMatchObject({ status: 'approved', needs_manual_review: false });
      expect(response.body.document_analysis).toMatchObject({
        document_type: 'id_card',
        mrz_document_code: 'I',
        mrz_format: 'TD1',
        country_detected: 'GBR',
        format_valid: true,
        check_digits_valid: true,
        calculated_age: 30,
        document_number_last4: '0T47',
      });
      expect(response.body.document_analysis.holder_binding).toMatchObject({
        portrait_found: true,
        face_match: { match: true },
        bound: true,
      });
    },
    120_000,
  );

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
    // Read cleanly — but sent without a live video, so nothing ties it to the sender: a person decides.
    expect(response.body).toMatchObject({
      status: 'pending',
      needs_manual_review: true,
      document_analysis: {
        calculated_age: 45,
        check_digits_valid: true,
        holder_binding: { live_video: 'missing' },
      },
    });
    expect(response.body.document_analysis.holder_binding.review_reasons).toContain(
      'no live video of the holder was recorded with the document',
    );
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

describe.skipIf(!withHolder)('documents bound to their holder', () => {
  const reasons = (body: { document_analysis: { holder_binding: { review_reasons: string[] } } }) =>
    body.document_analysis.holder_binding.review_reasons.join(' | ');

  it('sends the SPECIMEN forgery (valid MRZ, no portrait) to manual review with the reason, never approving it', async () => {
    const { token } = await newUser(t);
    const forged = await passportWithPortrait(passport(30), null, ['SPECIMEN']);
    const response = await upload(token, forged, 'passport.jpg', undefined, clip).expect(201);
    expect(response.body).toMatchObject({
      status: 'pending',
      needs_manual_review: true,
      document_analysis: {
        check_digits_valid: true,
        holder_binding: {
          portrait_found: false,
          portrait_problem: 'no_face',
          bound: false,
          face_match: null,
        },
      },
    });
    expect(reasons(response.body)).toMatch(/no portrait face found on the document/);
    expect(response.body.message).toMatch(/could not confirm automatically that it belongs to you/);
    const id = response.body.verification_id as string;
    const row = await t.db.models.Verification.findByPk(id);
    expect(row?.review_notes[0]?.note).toMatch(/Not bound to the holder: no portrait face found/);
    // The reviewer gets the document and the video, encrypted, in upload order.
    const kept = await t.services.verifications.reviewMedia(id);
    expect(kept.map((m) => m.contentType)).toEqual(['image/jpeg', 'video/mp4']);
    expect(kept[1]?.bytes.equals(clip)).toBe(true);
    const status = await t.request.get('/api/v1/users/verification-status').set(bearer(token)).expect(200);
    expect(status.body).toMatchObject({ age_verified: false, pending_reviews: 1 });
  }, 120_000);

  it('does not approve a portrait of someone else, nor a still photo held to the camera', async () => {
    const { token } = await newUser(t);
    const other = await upload(
      token,
      await holderPassport(fixture(ADULT_MALE_40S), { number: 'GB8765432' }),
      'passport.jpg',
      undefined,
      clip,
    ).expect(201);
    expect(other.body).toMatchObject({
      status: 'pending',
      document_analysis: {
        holder_binding: { portrait_found: true, live_video: 'passed', face_match: { match: false } },
      },
    });
    expect(reasons(other.body)).toMatch(/does not match the document portrait/);

    const still = await upload(
      token,
      await holderPassport(fixture(ADULT_FEMALE_30S), { number: 'GB2468024' }),
      'passport.jpg',
      undefined,
      stillVideo(fixture(ADULT_FEMALE_30S), 5),
    ).expect(201);
    expect(still.body).toMatchObject({
      status: 'pending',
      document_analysis: { holder_binding: { live_video: 'failed' } },
    });
    expect(reasons(still.body)).toMatch(/did not pass the liveness challenge/);
  }, 180_000);

  it('flags the same document on a second account, and lets its owner use it again', async () => {
    const page = await holderPassport(holderFace, { number: 'GB7654321' });
    const first = await newUser(t);
    const second = await newUser(t);
    const approved = await upload(first.token, page, 'passport.jpg', undefined, clip).expect(201);
    expect(approved.body.status).toBe('approved');
    const flagged = await upload(second.token, page, 'passport.jpg', undefined, clip).expect(201);
    expect(flagged.body).toMatchObject({
      status: 'pending',
      needs_manual_review: true,
      document_analysis: { holder_binding: { bound: false } },
    });
    // The uploader is not told that, or how often, the document is used elsewhere (issue 21 item 13)…
    expect(flagged.text).not.toMatch(/other account|document_used_by_other_accounts/);
    // …the reviewer is.
    const reviewer = await createAdmin(t);
    const detail = await t.request
      .get(`/api/v1/admin/verifications/${flagged.body.verification_id}`)
      .set('Authorization', `Bearer ${reviewer.token}`)
      .expect(200);
    expect(detail.body.document_analysis.holder_binding).toMatchObject({
      document_used_by_other_accounts: 1,
    });
    expect(detail.body.document_analysis.holder_binding.review_reasons.join(' | ')).toMatch(
      /already proves or is waiting to prove 1 other account/,
    );
    const again = await upload(first.token, page, 'passport.jpg', undefined, clip).expect(201);
    expect(again.body.status).toBe('approved');
  }, 240_000);

  it('approves at most one of two accounts racing with the same document', async () => {
    const page = await holderPassport(holderFace, { number: 'GB5550001' });
    const [a, b] = await Promise.all([newUser(t), newUser(t)]);
    const answers = await Promise.all([
      upload(a.token, page, 'passport.jpg', undefined, clip).expect(201),
      upload(b.token, page, 'passport.jpg', undefined, clip).expect(201),
    ]);
    const statuses = answers.map((r) => r.body.status as string).sort();
    expect(statuses).toEqual(['approved', 'pending']);
    const [claims] = await t.db.sequelize.query('SELECT user_id FROM document_claims');
    const holders = (claims as { user_id: string }[]).filter((c) =>
      [a.user.id, b.user.id].includes(c.user_id),
    );
    expect(holders).toHaveLength(1);
  }, 240_000);

  it('sends a page whose printed birth date contradicts its MRZ to review', async () => {
    const { token } = await newUser(t);
    const page = await holderPassport(holderFace, {
      number: 'GB3456789',
      printedBirth: '01.01.1961',
    });
    const response = await upload(token, page, 'passport.jpg', undefined, clip).expect(201);
    expect(response.body, reasons(response.body)).toMatchObject({
      status: 'pending',
      document_analysis: {
        holder_binding: { printed_fields: { date_of_birth: 'conflicts' }, face_match: { match: true } },
      },
    });
    expect(reasons(response.body)).toMatch(/printed birth date 1961-01-01 differs/);
  }, 120_000);

  it('completes an identity verification through the same flow', async () => {
    const { token, user } = await newUser(t);
    const page = await holderPassport(holderFace, { number: 'GB1357913' });
    const response = await upload(
      token,
      page,
      'passport.jpg',
      { document_type: 'passport', verification_type: 'identity' },
      clip,
    ).expect(201);
    expect(response.body, reasons(response.body)).toMatchObject({
      status: 'approved',
      needs_manual_review: false,
    });
    expect(response.body.message).toMatch(/identity is verified/);
    const status = await t.services.verifications.status(user.id);
    expect(status).toMatchObject({ identity_verified: true, age_verified: true, proven_min_age: 30 });
  }, 120_000);
});

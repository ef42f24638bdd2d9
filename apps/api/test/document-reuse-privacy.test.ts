import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewerDocumentAnalysis } from '@attestly/contracts';
import { createAdmin } from './admin-helpers';
import { createTestApp, signUp, type TestApp } from './helpers';

/**
 * Issue 21 item 13: how many other accounts a document proves is for reviewers only. The uploader's screens, API
 * answers and data export never carry the count or the reason that names it; the back office does.
 * (The upload's own answer is checked with the real models in verification-document.test.ts.)
 */
let t: TestApp;
let admin: Awaited<ReturnType<typeof createAdmin>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createAdmin(t);
});
afterAll(async () => {
  await t.close();
});

const REUSE = 'this document already proves or is waiting to prove 1 other account';
const NO_VIDEO = 'no live video of the holder was recorded with the document';
const DECISION = `Not bound to the holder: ${NO_VIDEO}; ${REUSE}`;

const READING: ReviewerDocumentAnalysis = {
  document_type: 'passport',
  mrz_document_code: 'P',
  mrz_format: 'TD3',
  country_detected: 'GB',
  state_detected: null,
  nationality: 'GBR',
  format_valid: true,
  check_digits_valid: true,
  not_expired: true,
  expiry_date: '2031-04-30',
  authentic: null,
  authenticity_note: 'not checked',
  date_of_birth: '1990-03-14',
  calculated_age: 36,
  age_threshold: 18,
  threshold_met: true,
  document_number_last4: '4321',
  read_confidence: 0.9,
  reasons: [],
  holder_binding: {
    portrait_found: true,
    portrait_problem: null,
    live_video: 'missing',
    liveness_reasons: [],
    face_match: null,
    printed_fields: null,
    document_used_by_other_accounts: 1,
    bound: false,
    review_reasons: [NO_VIDEO, REUSE],
  },
};

/** A document case sent to a reviewer, recorded as the document flow records one that another account uses. */
async function reusedDocumentCase(userId: string) {
  return t.services.verifications.record(
    {
      userId,
      type: 'age',
      method: 'document',
      status: 'pending',
      confidence: 0.9,
      ageThreshold: 18,
      needsReview: true,
      message: 'Your document was read, but a reviewer will check it.',
      details: { decision: DECISION, media_stored: true },
      documentAnalysis: READING,
      fingerprint: 'e'.repeat(64),
      proves: { minAge: 36 },
      media: { bytes: Buffer.from('%PDF-1.4 passport'), contentType: 'application/pdf' },
      systemNote: DECISION,
    },
    { ip: '10.0.0.2', userAgent: 'test' },
  );
}

interface OwnerCase {
  id: string;
  document_analysis: { holder_binding: unknown };
  details: { decision?: string };
  review_notes?: Array<{ note: string }>;
}

const mentionsReuse = (text: string) => /other account|document_used_by_other_accounts/.test(text);

describe('the document reuse count', () => {
  it('is left out of everything the uploader sees, and the other reasons stay', async () => {
    const { user, token } = await signUp(t);
    const kept = await reusedDocumentCase(user.id);
    const bearer = { Authorization: `Bearer ${token}` };
    const list = await t.request.get('/api/v1/users/verifications').set(bearer).expect(200);
    const status = await t.request.get('/api/v1/users/verification-status').set(bearer).expect(200);
    const exported = await t.request.get('/api/v1/users/export').set(bearer).expect(200);
    for (const answer of [list, status, exported])
      expect(mentionsReuse(answer.text), answer.text).toBe(false);
    const mine = (list.body.verifications as OwnerCase[]).find((item) => item.id === kept.id);
    expect(mine?.document_analysis.holder_binding).toEqual({
      portrait_found: true,
      portrait_problem: null,
      live_video: 'missing',
      liveness_reasons: [],
      face_match: null,
      printed_fields: null,
      bound: false,
      review_reasons: [NO_VIDEO],
    });
    expect(mine?.details.decision).toBe(`Not bound to the holder: ${NO_VIDEO}`);
    const exportedCase = (exported.body.verifications as OwnerCase[]).find((item) => item.id === kept.id);
    expect(exportedCase?.review_notes?.map((note) => note.note)).toEqual([
      `Not bound to the holder: ${NO_VIDEO}`,
    ]);
  });

  it('is shown to reviewers, with its reason', async () => {
    const { user } = await signUp(t);
    const kept = await reusedDocumentCase(user.id);
    const detail = await t.request
      .get(`/api/v1/admin/verifications/${kept.id}`)
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    expect(detail.body.document_analysis.holder_binding).toMatchObject({
      document_used_by_other_accounts: 1,
      review_reasons: [NO_VIDEO, REUSE],
    });
    expect(detail.body.result_details.decision).toBe(DECISION);
  });
});

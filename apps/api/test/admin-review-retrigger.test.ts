import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentReading, HolderCheck, VisionEngine } from '@attestly/models';
import { createAdmin } from './admin-helpers';
import { createTestApp, signUp, type TestApp } from './helpers';

/**
 * Retrigger decides a kept document as the user flow decides a fresh upload (verification/document.ts): the MRZ
 * reading AND the holder check on the kept document and live video. A stub engine stands in for the models: it
 * reads a clean, valid adult passport every time, and answers the holder check as each case needs.
 */
describe('retriggering a kept document', () => {
  let r: TestApp;
  let reviewer: Awaited<ReturnType<typeof createAdmin>>;
  const holderCalls: Array<{ document: Buffer; video: Buffer; thresholds?: number[] }> = [];
  let holderAnswer: HolderCheck;
  let documentNumber = 'GB0000001';

  const SCAN = Buffer.from('pretend JPEG of a passport page');
  const CLIP = Buffer.from('pretend WebM of the live challenge');

  const liveVideo = (is_live: boolean) =>
    ({
      is_live,
      video_liveness: {
        passed: is_live,
        head_turn: is_live,
        blink: is_live,
        reasons: is_live ? [] : ['no blink'],
      },
      age: 31,
    }) as unknown as HolderCheck['video'];
  const holder = (match: boolean): HolderCheck => ({
    portrait: { found: true, problem: null, quality_ok: true },
    video: liveVideo(true),
    video_problem: null,
    face_match: { similarity: match ? 0.82 : 0.21, frame_similarities: [], match, threshold: 0.55 },
  });

  const engine = {
    ready: Promise.resolve(),
    status: () => ({ backend: 'stub', ready: true, workers: 1, queued: 0 }),
    async readDocument(): Promise<DocumentReading> {
      const now = r.clock.now();
      const birth = `${now.getUTCFullYear() - 30}-01-15`;
      const expiry = `${now.getUTCFullYear() + 5}-01-15`;
      return {
        format_valid: true,
        check_digits_valid: true,
        document_type: 'P',
        document_number_last4: documentNumber.slice(-4),
        issuing_state: 'GBR',
        nationality: 'GBR',
        date_of_birth: birth,
        expiry_date: expiry,
        not_expired: true,
        calculated_age: 30,
        sex: 'female',
        mrz_format: 'TD3',
        confidence: 0.95,
        needs_manual_review: false,
        reasons: [],
        ocr_passes: 1,
        document_key: `GBR:P:${documentNumber}`,
        surname: 'HOLMES',
        given_names: 'SARAH JANE',
        printed: null,
      };
    },
    async checkHolder(document: Uint8Array, video: Uint8Array, options?: { thresholds?: number[] }) {
      holderCalls.push({
        document: Buffer.from(document),
        video: Buffer.from(video),
        thresholds: options?.thresholds,
      });
      return holderAnswer;
    },
    async close() {},
  } as unknown as VisionEngine;

  beforeAll(async () => {
    r = await createTestApp({ vision: engine });
    reviewer = await createAdmin(r);
  });
  afterAll(async () => {
    await r.close();
  });

  const retrigger = (id: string) =>
    r.request
      .post(`/api/v1/admin/verifications/${id}/retrigger`)
      .set('Authorization', `Bearer ${reviewer.token}`)
      .send({ force_reprocess: true });

  /** A document case sent to review by the user flow, with the document and (optionally) the live video kept. */
  async function keptCase(userId: string, withVideo = true) {
    return r.services.verifications.record(
      {
        userId,
        type: 'age',
        method: 'document',
        status: 'pending',
        confidence: 0.4,
        ageThreshold: 18,
        needsReview: true,
        message: 'We could not read your document automatically, so a reviewer will check it.',
        details: { decision: 'unclear' },
        proves: { minAge: 18 },
        media: [
          { bytes: SCAN, contentType: 'image/jpeg' },
          ...(withVideo ? [{ bytes: CLIP, contentType: 'video/webm' }] : []),
        ],
        systemNote: 'Automatic reading unclear',
      },
      { ip: '10.0.0.1', userAgent: 'test' },
    );
  }

  const ageVerified = async (token: string) =>
    (
      await r.request
        .get('/api/v1/users/verification-status')
        .set('Authorization', `Bearer ${token}`)
        .expect(200)
    ).body.age_verified as boolean;

  it('runs the holder check on the kept document and video, and a face that does not match goes to a person', async () => {
    const user = await signUp(r);
    documentNumber = 'GB0000001';
    holderAnswer = holder(false);
    holderCalls.length = 0;
    const kept = await keptCase(user.user.id);
    const answer = await retrigger(kept.id).expect(200);
    expect(holderCalls).toHaveLength(1);
    expect(holderCalls[0]?.document.equals(SCAN)).toBe(true);
    expect(holderCalls[0]?.video.equals(CLIP)).toBe(true);
    expect(holderCalls[0]?.thresholds).toEqual([18]);
    expect(answer.body).toMatchObject({ status: 'pending', needs_manual_review: true });
    expect(answer.body.document_analysis.holder_binding).toMatchObject({
      bound: false,
      face_match: { match: false },
    });
    expect(answer.body.result_details.decision).toMatch(/does not match the document portrait/);
    expect(await ageVerified(user.token)).toBe(false);
    // The media stays for the reviewer.
    expect(answer.body.media).toHaveLength(2);
  });

  it('approves a clean document only when it is bound to its holder, and claims it for the account', async () => {
    const user = await signUp(r);
    documentNumber = 'GB0000002';
    holderAnswer = holder(true);
    const kept = await keptCase(user.user.id);
    const answer = await retrigger(kept.id).expect(200);
    expect(answer.body).toMatchObject({ status: 'approved', needs_manual_review: false });
    expect(answer.body.document_analysis.holder_binding).toMatchObject({ bound: true, live_video: 'passed' });
    expect(await ageVerified(user.token)).toBe(true);
    const [claims] = await r.db.sequelize.query(
      'SELECT user_id, verification_id FROM document_claims WHERE verification_id = :id',
      { replacements: { id: kept.id } },
    );
    expect(claims).toEqual([{ user_id: user.user.id, verification_id: kept.id }]);
  });

  it('sends a bound document that already proves another account to a person', async () => {
    const owner = await signUp(r);
    const other = await signUp(r);
    documentNumber = 'GB0000003';
    holderAnswer = holder(true);
    await retrigger((await keptCase(owner.user.id)).id).expect(200);
    expect(await ageVerified(owner.token)).toBe(true);
    const second = await keptCase(other.user.id);
    const answer = await retrigger(second.id).expect(200);
    expect(answer.body).toMatchObject({ status: 'pending', needs_manual_review: true });
    expect(answer.body.result_details.decision).toMatch(
      /already proves or is waiting to prove 1 other account/,
    );
    expect(await ageVerified(other.token)).toBe(false);
  });

  it('never approves a kept document without its live video', async () => {
    const user = await signUp(r);
    documentNumber = 'GB0000004';
    holderAnswer = holder(true);
    holderCalls.length = 0;
    const kept = await keptCase(user.user.id, false);
    const answer = await retrigger(kept.id).expect(200);
    expect(holderCalls).toHaveLength(0);
    expect(answer.body).toMatchObject({ status: 'pending', needs_manual_review: true });
    expect(answer.body.result_details.decision).toMatch(/no live video/);
    expect(await ageVerified(user.token)).toBe(false);
  });
});

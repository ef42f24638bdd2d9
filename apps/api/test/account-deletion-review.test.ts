import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewerDocumentAnalysis } from '@attestly/contracts';
import { adminApi, createAdmin } from './admin-helpers';
import { createTestApp, signUp, type TestApp } from './helpers';

/**
 * Issue 21 item 9: deleting an account (by its owner or by an administrator) withdraws its cases waiting for review
 * and purges their media; a withdrawn case cannot be approved, rejected or retriggered, so no proof is ever written
 * into the erased row.
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

const as = adminApi(
  () => t,
  () => admin.token,
);

const ANALYSIS: ReviewerDocumentAnalysis = {
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
  read_confidence: 0.6,
  reasons: [],
};

/** A document case waiting for a person, with its reading and kept media, as the document flow records it. */
async function pendingDocument(userId: string) {
  return t.services.verifications.record(
    {
      userId,
      type: 'age',
      method: 'document',
      status: 'pending',
      confidence: 0.6,
      ageThreshold: 18,
      needsReview: true,
      message: 'A reviewer will check your document.',
      details: { decision: 'unclear' },
      documentAnalysis: ANALYSIS,
      fingerprint: 'f'.repeat(64),
      proves: { minAge: 36 },
      media: { bytes: Buffer.from('%PDF-1.4 passport scan'), contentType: 'application/pdf' },
      systemNote: 'Automatic reading unclear',
    },
    { ip: '10.0.0.1', userAgent: 'test' },
  );
}

async function expectWithdrawn(caseId: string, userId: string) {
  const row = await t.db.models.Verification.findByPk(caseId);
  expect(row).toMatchObject({ status: 'expired', needs_manual_review: false, subject_fingerprint: null });
  expect(row?.document_analysis ?? null).toBeNull();
  expect(JSON.stringify(row?.result_details)).not.toContain('1990');
  expect((row?.result_details as Record<string, unknown>).proves).toBeUndefined();
  expect((row?.result_details as Record<string, unknown>).withdrawn).toMatchObject({
    reason: 'account_deleted',
  });
  expect(await t.db.models.VerificationMedia.count({ where: { verification_id: caseId } })).toBe(0);
  // Not in the review queue any more.
  const queue = await t.request
    .get('/api/v1/admin/verifications?needs_review=true')
    .set('Authorization', `Bearer ${admin.token}`)
    .expect(200);
  expect(queue.body.verifications.map((item: { id: string }) => item.id)).not.toContain(caseId);
  // No decision or re-analysis can touch it: a clear 409, and the erased row gets no proof.
  const approve = await as(`/verifications/${caseId}/approve`).post({ reviewer_notes: 'Looks fine' });
  const reject = await as(`/verifications/${caseId}/reject`).post({
    rejection_reason: 'x',
    reviewer_notes: 'y',
  });
  const retrigger = await as(`/verifications/${caseId}/retrigger`).post({ force_reprocess: true });
  for (const answer of [approve, reject, retrigger]) {
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({
      code: 'verification.withdrawn',
      detail: 'This case was withdrawn when its account was deleted',
    });
  }
  const user = await t.db.models.User.findByPk(userId);
  expect(user).toMatchObject({ proven_min_age: null, age_verified_at: null, age_verified_until: null });
}

describe('deleting an account withdraws its cases under review', () => {
  it('when the owner deletes the account', async () => {
    const { user, token, password } = await signUp(t);
    const waiting = await pendingDocument(user.id);
    expect(await t.db.models.VerificationMedia.count({ where: { verification_id: waiting.id } })).toBe(1);
    await t.request
      .delete('/api/v1/users/account')
      .set('Authorization', `Bearer ${token}`)
      .send({ password })
      .expect(204);
    await expectWithdrawn(waiting.id, user.id);
    const entry = await t.db.models.AuditLog.findOne({
      where: { event_type: 'user.account_deleted', user_id: user.id },
    });
    expect(JSON.parse(entry?.details ?? '{}')).toMatchObject({ withdrawn_cases: 1 });
  });

  it('when an administrator deletes the account', async () => {
    const { user } = await signUp(t);
    const waiting = await pendingDocument(user.id);
    await as(`/users/${user.id}`).delete({ reason: 'Requested by e-mail' }).expect(204);
    await expectWithdrawn(waiting.id, user.id);
  });

  it('erases the reading of the account’s decided cases too', async () => {
    const { user } = await signUp(t);
    const decided = await pendingDocument(user.id);
    await as(`/verifications/${decided.id}/reject`)
      .post({ rejection_reason: 'Blurred', reviewer_notes: 'Unreadable' })
      .expect(200);
    await as(`/users/${user.id}`).delete({}).expect(204);
    const row = await t.db.models.Verification.findByPk(decided.id);
    expect(row?.status).toBe('rejected');
    expect(row?.document_analysis?.date_of_birth ?? null).toBeNull();
    expect(row?.document_analysis?.calculated_age ?? null).toBeNull();
    expect(row?.document_analysis?.document_number_last4 ?? null).toBeNull();
    expect((row?.result_details as Record<string, unknown>).proves).toBeUndefined();
  });

  it('never leaves a proof in the erased row when an approval races the deletion', async () => {
    // The approval starts a little later each round, so that both orders tend to happen (the deletion ends sign-ins
    // first); whichever wins, the erased row holds no proof and the case holds no media.
    for (const delayMs of [0, 2, 5, 10, 20, 40, 80]) {
      const { user } = await signUp(t);
      const waiting = await pendingDocument(user.id);
      const [deleted, approved] = await Promise.all([
        as(`/users/${user.id}`).delete({}),
        new Promise((resolve) => setTimeout(resolve, delayMs)).then(() =>
          as(`/verifications/${waiting.id}/approve`).post({ reviewer_notes: 'Readable by eye' }),
        ),
      ]);
      expect(deleted.status).toBe(204);
      expect([200, 409]).toContain(approved.status);
      if (approved.status === 409) expect(approved.body.code).toBe('verification.withdrawn');
      const row = await t.db.models.User.findByPk(user.id);
      expect(row).toMatchObject({
        proven_min_age: null,
        age_verified_until: null,
        deleted_at: expect.any(Date),
      });
      const kept = await t.db.models.Verification.findByPk(waiting.id);
      expect(kept?.status).toBe(approved.status === 200 ? 'approved' : 'expired');
      expect(await t.db.models.VerificationMedia.count({ where: { verification_id: waiting.id } })).toBe(0);
    }
  });

  it('records no new case for an account deleted meanwhile', async () => {
    const { user } = await signUp(t);
    await as(`/users/${user.id}`).delete({}).expect(204);
    await expect(pendingDocument(user.id)).rejects.toMatchObject({
      status: 409,
      code: 'verification.account_deleted',
    });
    expect(await t.db.models.Verification.count({ where: { user_id: user.id } })).toBe(0);
  });
});

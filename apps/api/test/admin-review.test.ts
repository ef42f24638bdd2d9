import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../src/modules/shared/audit/service';
import { adminApi, createAdmin, signInAdmin } from './admin-helpers';
import { createTestApp, signUp, type TestApp } from './helpers';

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

const DOCUMENT = Buffer.from('%PDF-1.4 pretend this is an unreadable passport scan');

/** A case waiting for a person, made through the verification service as the document flow makes it. */
async function pendingCase(userId: string, type: 'age' | 'identity' = 'age') {
  return t.services.verifications.record(
    {
      userId,
      type,
      method: 'document',
      status: 'pending',
      confidence: 0.3,
      ageThreshold: 18,
      needsReview: true,
      message: 'We could not read your document automatically, so a reviewer will check it.',
      details: { decision: 'unclear' },
      proves: type === 'identity' ? { identity: true } : { minAge: 18 },
      media: { bytes: DOCUMENT, contentType: 'application/pdf' },
      systemNote: 'Automatic reading unclear',
    },
    { ip: '10.0.0.1', userAgent: 'test' },
  );
}

const status = (token: string) =>
  t.request.get('/api/v1/users/verification-status').set('Authorization', `Bearer ${token}`).expect(200);

describe('the review queue', () => {
  it('lists cases needing review first, with filters and a total', async () => {
    const user = await signUp(t);
    await t.services.verifications.record(
      {
        userId: user.user.id,
        type: 'location',
        method: 'ip_geolocation',
        status: 'approved',
        confidence: 0.9,
        ageThreshold: null,
        message: 'ok',
        details: {},
        proves: { location: { country: 'GB', state: null } },
      },
      { ip: null, userAgent: null },
    );
    const waiting = await pendingCase(user.user.id);
    const list = await as('/verifications').get().expect(200);
    expect(list.body.total_count).toBe(2);
    expect(list.body.verifications[0]).toMatchObject({
      id: waiting.id,
      needs_manual_review: true,
      status: 'pending',
      user_email: user.email,
      has_media: true,
    });
    const filtered = await as(
      '/verifications?needs_review=true&type=age&method=document&status=pending',
    ).get();
    expect(filtered.body.verifications.map((row: { id: string }) => row.id)).toEqual([waiting.id]);
    expect((await as(`/verifications?search=${user.email}`).get()).body.total_count).toBe(2);
    expect((await as(`/verifications?search=${waiting.id}`).get()).body.total_count).toBe(1);
    // Terms too short for a trigram (PostgreSQL takes other SQL for them): every case of every matching account.
    const everyUser = await t.db.models.User.findAll();
    const everyCase = await t.db.models.Verification.findAll();
    for (const term of [user.email.slice(5, 7).toUpperCase(), user.email.charAt(6), '@', 'zz']) {
      const owners = new Set(
        everyUser.filter((row) => row.email.toLowerCase().includes(term.toLowerCase())).map((row) => row.id),
      );
      const expected = everyCase.filter((row) => owners.has(row.user_id)).map((row) => row.id);
      const body = (
        await as(`/verifications?search=${encodeURIComponent(term)}&limit=100`)
          .get()
          .expect(200)
      ).body as { verifications: Array<{ id: string }>; total_count: number };
      expect({ term, ids: body.verifications.map((row) => row.id).sort(), total: body.total_count }).toEqual({
        term,
        ids: expected.sort(),
        total: expected.length,
      });
      // A page the newest cases fill (page's probe): the first case of the queue order, and the same total.
      const queue = everyCase
        .filter((row) => owners.has(row.user_id))
        .sort(
          (a, b) =>
            Number(b.needs_manual_review) - Number(a.needs_manual_review) ||
            b.created_at.getTime() - a.created_at.getTime() ||
            (b.id > a.id ? 1 : -1),
        );
      const first = (
        await as(`/verifications?search=${encodeURIComponent(term)}&limit=1`)
          .get()
          .expect(200)
      ).body as { verifications: Array<{ id: string }>; total_count: number };
      expect({ term, ids: first.verifications.map((row) => row.id), total: first.total_count }).toEqual({
        term,
        ids: queue.slice(0, 1).map((row) => row.id),
        total: expected.length,
      });
    }
    expect(everyCase.length).toBeGreaterThanOrEqual(2);
    const today = t.clock.now().toISOString().slice(0, 10);
    expect(
      (await as(`/verifications?start_date=${today}&end_date=${today}`).get()).body.total_count,
    ).toBeGreaterThanOrEqual(2);
    expect((await as('/verifications?end_date=2000-01-01').get()).body.total_count).toBe(0);
    expect((await as('/verifications?limit=1&skip=1').get()).body.verifications).toHaveLength(1);
  });

  it('shows the kept media decrypted, never cached, and audits every view', async () => {
    const user = await signUp(t);
    const waiting = await pendingCase(user.user.id);
    const detail = await as(`/verifications/${waiting.id}`).get().expect(200);
    expect(detail.body.review_notes).toEqual([
      expect.objectContaining({ note: 'Automatic reading unclear', timestamp: expect.any(String) }),
    ]);
    expect(detail.body.media).toHaveLength(1);
    const media = await t.request
      .get(detail.body.media[0].url)
      .set('Authorization', `Bearer ${admin.token}`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(Buffer.compare(media.body as Buffer, DOCUMENT)).toBe(0);
    expect(media.headers['cache-control']).toContain('no-store');
    expect(media.headers['content-type']).toBe('application/pdf');
    expect(media.headers['x-content-type-options']).toBe('nosniff');
    // Not to anyone else.
    expect(
      (await t.request.get(detail.body.media[0].url).set('Authorization', `Bearer ${user.token}`)).status,
    ).toBe(401);
    const views = await t.db.models.AuditLog.findAll({
      where: { event_type: 'verification_media_viewed', admin_user_id: admin.id },
    });
    expect(views.some((row) => JSON.parse(row.details).verification_id === waiting.id)).toBe(true);
  });

  it('approving an age document proves the age, tells the user by mail and deletes the media', async () => {
    const user = await signUp(t);
    const waiting = await pendingCase(user.user.id);
    expect((await status(user.token)).body.age_verified).toBe(false);
    const approved = await as(`/verifications/${waiting.id}/approve`)
      .post({ reviewer_notes: 'Photo page readable by eye; born 1990', confidence_override: 0.95 })
      .expect(200);
    expect(approved.body).toMatchObject({
      status: 'approved',
      confidence_score: 0.95,
      reviewed_by: admin.id,
      media: [],
    });
    expect(approved.body.review_notes.at(-1)).toMatchObject({
      note: 'Photo page readable by eye; born 1990',
      admin_user_id: admin.id,
    });
    const after = (await status(user.token)).body;
    expect(after).toMatchObject({ age_verified: true, proven_min_age: 18 });
    const mail = await t.smtp.waitFor(user.email, /approved/);
    expect(mail.text).toContain('age verification');
    // The result mail links back to the appliance (issue 25 item 12).
    expect(mail.text).toContain(`See your verifications: ${t.deps.config.publicUrl}/verification`);
    // A decided case cannot be decided again.
    expect(
      (await as(`/verifications/${waiting.id}/reject`).post({ rejection_reason: 'x', reviewer_notes: 'y' }))
        .status,
    ).toBe(409);
    const rows = await t.db.models.AuditLog.findAll({ where: { event_type: 'verification_approved' } });
    expect(rows.at(-1)).toMatchObject({ admin_user_id: admin.id, user_id: user.user.id });
  });

  it('approving an identity verification proves identity', async () => {
    const user = await signUp(t);
    const waiting = await pendingCase(user.user.id, 'identity');
    await as(`/verifications/${waiting.id}/approve`).post({ reviewer_notes: 'Portrait matches' }).expect(200);
    expect((await status(user.token)).body.identity_verified).toBe(true);
  });

  it('rejecting records the reason, tells the user and proves nothing', async () => {
    const user = await signUp(t);
    const waiting = await pendingCase(user.user.id);
    const rejected = await as(`/verifications/${waiting.id}/reject`)
      .post({ rejection_reason: 'Document is a photocopy', reviewer_notes: 'No security features visible' })
      .expect(200);
    expect(rejected.body).toMatchObject({
      status: 'rejected',
      message: 'Rejected by a reviewer: Document is a photocopy',
    });
    expect((await status(user.token)).body.age_verified).toBe(false);
    const mail = await t.smtp.waitFor(user.email, /not approved/);
    expect(mail.text).toContain('Document is a photocopy');
    expect(mail.text).toContain(`${t.deps.config.publicUrl}/verification`);
    const entry = await t.db.models.AuditLog.findOne({
      where: { event_type: 'verification_rejected', user_id: user.user.id },
    });
    expect(entry).toMatchObject({ admin_user_id: admin.id, severity: 'warning' });
    expect(JSON.parse(entry?.details ?? '{}')).toMatchObject({ rejection_reason: 'Document is a photocopy' });
    // Retrigger needs the media, which the decision deleted.
    const retrigger = await as(`/verifications/${waiting.id}/retrigger`).post({ force_reprocess: true });
    expect(retrigger.status).toBe(409);
    expect(retrigger.body.code).toBe('verification.media_gone');
  });

  it('rejects with one reason, which is what the user is told and what the notes keep', async () => {
    const user = await signUp(t);
    const waiting = await pendingCase(user.user.id);
    const rejected = await as(`/verifications/${waiting.id}/reject`)
      .post({ rejection_reason: 'The photo page is cut off' })
      .expect(200);
    expect(rejected.body).toMatchObject({
      status: 'rejected',
      message: 'Rejected by a reviewer: The photo page is cut off',
      can_retrigger: false,
    });
    expect(rejected.body.review_notes.at(-1).note).toBe('The photo page is cut off');
    expect((await t.smtp.waitFor(user.email, /not approved/)).text).toContain('The photo page is cut off');
  });

  it('offers Retrigger exactly where the server re-runs, and gives a document figure only with its holder', async () => {
    const user = await signUp(t);
    const kept = await pendingCase(user.user.id);
    const camera = await t.services.verifications.record(
      {
        userId: user.user.id,
        type: 'age',
        method: 'facial_recognition',
        status: 'rejected',
        confidence: 0.91,
        ageThreshold: 18,
        message: 'Estimated under the challenge age',
        details: {},
      },
      { ip: null, userAgent: null },
    );
    // A perfectly read passport whose portrait could not be found: the read is good, the holder unknown.
    const portraitless = await t.services.verifications.record(
      {
        userId: user.user.id,
        type: 'age',
        method: 'document',
        status: 'pending',
        confidence: 0.95,
        ageThreshold: 18,
        needsReview: true,
        message: 'A reviewer will check it.',
        details: {},
        proves: { minAge: 18 },
        documentAnalysis: { holder_binding: { bound: false, portrait_found: false } } as never,
        media: { bytes: DOCUMENT, contentType: 'application/pdf' },
      },
      { ip: null, userAgent: null },
    );
    const rows = (await as(`/verifications?search=${user.email}`).get().expect(200)).body
      .verifications as Array<{
      id: string;
      can_retrigger: boolean;
      confidence_score: number | null;
      confidence_note: string | null;
    }>;
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(kept.id)).toMatchObject({ can_retrigger: true, confidence_score: 0.3 });
    expect(byId.get(camera.id)).toMatchObject({
      can_retrigger: false,
      confidence_score: 0.91,
      confidence_note: 'Confidence of the age estimate',
    });
    expect(byId.get(portraitless.id)).toMatchObject({
      can_retrigger: true,
      confidence_score: null,
      confidence_note: expect.stringContaining('Holder not confirmed'),
    });
    expect((await as(`/verifications/${portraitless.id}`).get().expect(200)).body).toMatchObject({
      can_retrigger: true,
      confidence_score: null,
    });
    // What is not offered is refused by the server with a reason.
    const refused = await as(`/verifications/${camera.id}/retrigger`).post({}).expect(409);
    expect(refused.body).toMatchObject({ code: 'verification.nothing_to_rerun', detail: expect.any(String) });
    // Once decided, the document is deleted and Retrigger is no longer offered.
    await as(`/verifications/${kept.id}/approve`).post({ reviewer_notes: 'checked' }).expect(200);
    expect((await as(`/verifications/${kept.id}`).get()).body.can_retrigger).toBe(false);
  });

  it('refuses to retrigger an approved case or a method with nothing to re-run', async () => {
    const user = await signUp(t);
    const waiting = await pendingCase(user.user.id);
    await as(`/verifications/${waiting.id}/approve`).post({ reviewer_notes: 'ok' }).expect(200);
    expect((await as(`/verifications/${waiting.id}/retrigger`).post({})).body.code).toBe(
      'verification.not_retriggerable',
    );
    const card = await t.services.verifications.record(
      {
        userId: user.user.id,
        type: 'age',
        method: 'credit_card',
        status: 'failed',
        confidence: null,
        ageThreshold: 18,
        message: 'declined',
        details: {},
      },
      { ip: null, userAgent: null },
    );
    expect((await as(`/verifications/${card.id}/retrigger`).post({})).body.code).toBe(
      'verification.nothing_to_rerun',
    );
    // A kept document with no vision engine loaded on this server: 503, and the case is left as it was.
    const kept = await pendingCase(user.user.id);
    const unavailable = await as(`/verifications/${kept.id}/retrigger`).post({ force_reprocess: true });
    expect(unavailable.status).toBe(503);
    expect(unavailable.body.code).toBe('verification.unavailable');
    expect((await as(`/verifications/${kept.id}`).get()).body).toMatchObject({
      status: 'pending',
      media: [expect.any(Object)],
    });
  });

  it('raises a review-backlog alert after 24 hours and counts it in the stats', async () => {
    const user = await signUp(t);
    await pendingCase(user.user.id);
    const before = await as('/system/alerts').get().expect(200);
    expect(before.body.alerts.map((alert: { type: string }) => alert.type)).not.toContain('review_backlog');
    t.clock.advance(25 * 3600_000);
    // The admin session ended long ago (30 minutes idle): sign in again.
    admin.token = await signInAdmin(t, admin.email, admin.secret);
    const after = await as('/system/alerts').get().expect(200);
    expect(after.body.alerts).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'review_backlog', severity: 'warning' })]),
    );
    // The start is audited once (spec 02 §4 system_alert), however often and by how many at once it is computed.
    await Promise.all([1, 2, 3].map(() => t.services.admin.system.alerts()));
    const alertEvents = async () =>
      (await as('/audit-logs?event_type=system.alert').get().expect(200)).body.audit_logs.filter(
        (row: { details: { alert_type: string } }) => row.details.alert_type === 'review_backlog',
      ) as Array<{ severity: string; details: Record<string, unknown> }>;
    expect(await alertEvents()).toEqual([
      expect.objectContaining({
        severity: 'warning',
        details: expect.objectContaining({ state: 'started', message: expect.stringContaining('24 hours') }),
      }),
    ]);
    const stats = await as('/system/stats').get().expect(200);
    expect(stats.body.pending_reviews).toBeGreaterThanOrEqual(1);
    // Once the backlog is cleared the alert ends, and that is audited once too.
    await t.db.models.Verification.update({ status: 'approved' }, { where: { status: 'pending' } });
    await Promise.all([1, 2].map(() => t.services.admin.system.alerts()));
    const events = await alertEvents();
    expect(events.map((row) => row.details.state)).toEqual(['ended', 'started']);
    expect(events[0]?.severity).toBe('info');
    expect(stats.body.success_rate).toBeGreaterThan(0);
    expect((await verifyAuditChain(t.db)).ok).toBe(true);
  });
});

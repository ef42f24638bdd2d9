import type { Logger } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { maintenanceJobs, startJobs, type Job } from '../src/jobs';
import { MEDIA_PURGE_INTERVAL_MS } from '../src/modules/users/verification/service';
import { createTestApp, signUp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const origin = { ip: '198.51.100.7', userAgent: 'jobs test' };

/** A case waiting for a reviewer, with its upload kept (encrypted) as the document route keeps it. */
async function pendingCase(userId: string, bytes: Buffer) {
  return t.services.verifications.record(
    {
      userId,
      type: 'age',
      method: 'document',
      status: 'pending',
      confidence: 0.4,
      ageThreshold: 18,
      needsReview: true,
      message: 'A reviewer will check it.',
      details: {},
      media: { bytes, contentType: 'image/png' },
      systemNote: 'Automatic reading unclear',
    },
    origin,
  );
}

describe('verification media purge job', () => {
  it('is one of the maintenance jobs, every 15 minutes and at start', () => {
    const job = maintenanceJobs(t.services).find(
      (candidate) => candidate.name === 'purge-verification-media',
    );
    expect(job).toMatchObject({ everyMs: MEDIA_PURGE_INTERVAL_MS, atStart: true });
    expect(MEDIA_PURGE_INTERVAL_MS).toBe(15 * 60_000);
  });

  it('deletes media of decided cases and of cases past the retention limit, and keeps the rest', async () => {
    const job = maintenanceJobs(t.services).find(
      (candidate) => candidate.name === 'purge-verification-media',
    );
    const { user } = await signUp(t);
    const { Verification, VerificationMedia } = t.db.models;
    const decided = await pendingCase(user.id, Buffer.from('decided upload'));
    const waiting = await pendingCase(user.id, Buffer.from('waiting upload'));
    // Decided without its media removed (as after a crash between the decision and the cleanup).
    await Verification.update({ status: 'rejected' }, { where: { id: decided.id } });

    expect(await job?.run()).toBe(1);
    expect(await VerificationMedia.count({ where: { verification_id: decided.id } })).toBe(0);
    expect(await VerificationMedia.count({ where: { verification_id: waiting.id } })).toBe(1);

    t.clock.advance(t.config.mediaRetentionMs - 60_000);
    expect(await job?.run()).toBe(0);
    expect(await VerificationMedia.count({ where: { verification_id: waiting.id } })).toBe(1);

    t.clock.advance(2 * 60_000);
    expect(await job?.run()).toBe(1);
    expect(await VerificationMedia.count({ where: { verification_id: waiting.id } })).toBe(0);
    const row = await Verification.findByPk(waiting.id);
    expect(row?.status).toBe('pending');
    expect(row?.review_notes.map((note) => note.note)).toContain(
      'Media deleted unreviewed: the retention limit passed',
    );
  });
});

describe('job runner', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs a job marked atStart at once and every job on its interval, logging failures by name', async () => {
    vi.useFakeTimers();
    const logger = { debug: vi.fn(), error: vi.fn() } as unknown as Logger;
    const early = vi.fn(async () => 'early done');
    const late = vi.fn(async () => {
      throw new Error('disk full');
    });
    const jobs: Job[] = [
      { name: 'early', everyMs: 1000, atStart: true, run: early },
      { name: 'late', everyMs: 1000, run: late },
    ];
    const stop = startJobs(jobs, logger);
    await vi.advanceTimersByTimeAsync(0);
    expect(early).toHaveBeenCalledTimes(1);
    expect(late).not.toHaveBeenCalled();

    await vi.advanceTimersByTimeAsync(1000);
    expect(early).toHaveBeenCalledTimes(2);
    expect(late).toHaveBeenCalledTimes(1);
    expect(logger.error).toHaveBeenCalledWith(
      expect.objectContaining({ job: 'late', err: expect.any(Error) }),
      'job failed',
    );

    stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(early).toHaveBeenCalledTimes(2);
    expect(late).toHaveBeenCalledTimes(1);
  });
});

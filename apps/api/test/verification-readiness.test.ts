import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VisionEngine } from '@attestly/models';
import { createTestApp, signUp, type TestApp } from './helpers';

/**
 * Start-up: the server listens while the models load, and until every worker is ready /readyz says so and the
 * routes that need the engine answer 503 with Retry-After. The engine here never finishes loading.
 */
let t: TestApp;
const loading = {
  ready: new Promise<void>(() => undefined),
  status: () => ({ backend: 'wasm-simd', ready: false, workers: 0, queued: 0 }),
} as unknown as VisionEngine;

beforeAll(async () => {
  t = await createTestApp({ vision: loading });
});
afterAll(async () => {
  await t.close();
});

describe('verification while the vision models are loading', () => {
  it('is not ready and says which component is missing', async () => {
    const response = await t.request.get('/readyz').expect(503);
    expect(response.body.status).toBe('not_ready');
    expect(response.body.checks.vision).toEqual({ ok: false, backend: 'wasm-simd', workers: 0, queued: 0 });
    expect(response.body.checks.database.ok).toBe(true);
  });

  it('answers 503 with Retry-After for photos and documents', async () => {
    const { token } = await signUp(t);
    const face = await t.request
      .post('/api/v1/age-verification/verify-age')
      .set('Authorization', `Bearer ${token}`)
      .field('media_type', 'image')
      .attach(
        'media_file',
        Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0]),
        'verification.jpg',
      )
      .expect(503);
    expect(face.headers['retry-after']).toBe('5');
    expect(face.body).toMatchObject({
      code: 'verification.starting',
      detail: expect.stringMatching(/starting/),
    });
    const document = await t.request
      .post('/api/v1/users/verify/document')
      .set('Authorization', `Bearer ${token}`)
      .field('document_type', 'passport')
      .attach('file', Buffer.from('%PDF-1.4\n%%EOF\n'), 'passport.pdf')
      .expect(503);
    expect(document.headers['retry-after']).toBe('5');
  });
});

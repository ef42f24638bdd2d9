import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  verificationAnswerSchema,
  verificationListSchema,
  verificationStatusSchema,
  verificationSummarySchema,
} from '@attestly/contracts';
import { createTestApp, signUp, type TestApp } from './helpers';

/**
 * The verification endpoints in the API reference: each is described, uploads are multipart with their fields,
 * and the documented answers match what the server sends (the facial and document answers are checked against
 * their schemas by the browser test, which runs the vision engine).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

// The document is plain JSON; these tests read it as such.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

describe('verification endpoints in the OpenAPI document', () => {
  it('describes every verification route under the Verification tag with a summary', async () => {
    const { body } = await t.request.get('/api/v1/openapi.json').expect(200);
    const routes: Array<[string, string]> = [
      ['/api/v1/age-verification/challenges', 'post'],
      ['/api/v1/age-verification/verify-age', 'post'],
      ['/api/v1/users/verify/document', 'post'],
      ['/api/v1/users/verify/location', 'post'],
      ['/api/v1/users/verify', 'post'],
      ['/api/v1/users/verification-status', 'get'],
      ['/api/v1/users/verifications', 'get'],
      ['/api/v1/users/verifications/{id}', 'get'],
    ];
    for (const [path, method] of routes) {
      const operation = (body.paths as Json)[path]?.[method] as Json | undefined;
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation?.tags, `${method} ${path}`).toEqual(['Verification']);
      expect(operation?.summary, `${method} ${path}`).not.toMatch(/^(GET|POST) \//);
      expect(operation?.security, `${method} ${path}`).toEqual([{ bearerAuth: [] }]);
    }
    expect((body.tags as Array<{ name: string }>).map((tag) => tag.name)).toContain('Verification');
  });

  it('documents the camera and document uploads as multipart with their fields, limits and 503', async () => {
    const { body } = await t.request.get('/api/v1/openapi.json').expect(200);
    const camera = body.paths['/api/v1/age-verification/verify-age'].post as Json;
    const cameraFields = camera.requestBody.content['multipart/form-data'].schema;
    expect(cameraFields.required).toEqual(['media_file', 'media_type']);
    expect(cameraFields.properties.media_type).toMatchObject({ enum: ['image', 'video'] });
    expect(cameraFields.properties.age_threshold.enum).toEqual(['12', '16', '18', '21']);
    expect(cameraFields.properties.challenge_id.description).toMatch(/POST \/age-verification\/challenges/);
    const challenges = body.paths['/api/v1/age-verification/challenges'].post as Json;
    expect(challenges.security).toEqual([{ bearerAuth: [] }]);
    expect(challenges.description).toMatch(/single-use/);
    expect(Object.keys(challenges.responses['201'].content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['id', 'steps', 'recording_seconds', 'tolerance_seconds', 'expires_at']),
    );
    expect(camera.description).toMatch(/Please log in to verify your age/);
    expect(Object.keys(camera.responses)).toEqual(
      expect.arrayContaining(['200', '401', '413', '415', '422', '429', '503']),
    );
    const result = camera.responses['200'].content['application/json'].schema;
    expect(result.required).toEqual(
      expect.arrayContaining(['age', 'confidence', 'is_live', 'verification_id', 'status', 'message']),
    );
    expect(Object.keys(result.properties)).toEqual(
      expect.arrayContaining(['frames_analyzed', 'video_duration', 'live_percentage', 'eye_measurements']),
    );

    const document = body.paths['/api/v1/users/verify/document'].post as Json;
    expect(Object.keys(document.requestBody.content)).toEqual(['multipart/form-data']);
    expect(
      document.requestBody.content['multipart/form-data'].schema.properties.document_type.enum,
    ).toContain('passport');
    const analysis =
      document.responses['201'].content['application/json'].schema.properties.document_analysis.properties;
    for (const field of [
      'format_valid',
      'not_expired',
      'authentic',
      'date_of_birth',
      'calculated_age',
      'threshold_met',
    ]) {
      expect(analysis[field], field).toBeDefined();
    }
    expect(document.responses['503']).toBeDefined();
  });

  it('describes the location, status and list answers exactly as the server sends them', async () => {
    const { token, email } = await signUp(t);
    const auth = { Authorization: `Bearer ${token}` };
    await t.request
      .put('/api/v1/users/profile')
      .set(auth)
      .send({ full_name: 'Test User', email, country: 'GB' })
      .expect(200);
    const located = await t.request
      .post('/api/v1/users/verify/location')
      .set(auth)
      .set('X-Forwarded-For', '81.2.69.160')
      .expect(201);
    expect(v.safeParse(verificationAnswerSchema, located.body).issues).toBeUndefined();
    const status = await t.request.get('/api/v1/users/verification-status').set(auth).expect(200);
    expect(v.safeParse(verificationStatusSchema, status.body).issues).toBeUndefined();
    const list = await t.request.get('/api/v1/users/verifications').set(auth).expect(200);
    expect(v.safeParse(verificationListSchema, list.body).issues).toBeUndefined();
    const one = await t.request
      .get(`/api/v1/users/verifications/${located.body.verification_id as string}`)
      .set(auth)
      .expect(200);
    expect(v.safeParse(verificationSummarySchema, one.body).issues).toBeUndefined();

    const { body } = await t.request.get('/api/v1/openapi.json').expect(200);
    const documented =
      body.paths['/api/v1/users/verification-status'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(documented.properties).sort()).toEqual(Object.keys(status.body).sort());
  });
});

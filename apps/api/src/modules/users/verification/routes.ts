import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import * as v from 'valibot';
import {
  LIMITS,
  VERIFICATION_LIMITS,
  ageVerificationFields,
  ageVerificationResultSchema,
  ageVerificationUploadSchema,
  documentVerificationFields,
  documentAnswerSchema,
  documentUploadSchema,
  errorEnvelopeSchema,
  livenessChallengeSchema,
  paging,
  verifyBody,
  verificationAnswerSchema,
  verificationListSchema,
  verificationStatusSchema,
  verificationSummarySchema,
  type FieldError,
} from '@attestly/contracts';
import type { Session } from '../../../db/models/index';
import { AppError, assert } from '../../../errors';
import { requireSession } from '../../../middleware/auth';
import { readMultipart } from '../../../middleware/multipart';
import { rateLimit } from '../../../middleware/rate-limit';
import { ok } from '../../../middleware/describe';
import { createRouter, routes } from '../../../middleware/route';
import type { Deps } from '../../../core/deps';
import type { RateLimiter } from '../../shared/rate-limit/service';
import type { SessionService } from '../../shared/sessions/service';
import type { VerificationModule } from './index';
import { origin } from '../../../lib/request-origin';
import { cardCheckRoutes } from './card-routes';
import { presentVerification } from './presenters';

const hour = 60 * 60_000;
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
const VIDEO_TYPES = ['video/webm', 'video/mp4'];

/** Multipart text fields checked with the same valibot schemas (and the same 422 shape) as JSON bodies. */
function parseFields<S extends v.GenericSchema>(schema: S, fields: Record<string, string>): v.InferOutput<S> {
  const result = v.safeParse(schema, fields);
  if (result.success) return result.output;
  const errors: FieldError[] = result.issues.map((issue) => ({
    path: v.getDotPath(issue) ?? 'body',
    message: issue.message,
  }));
  throw new AppError(422, 'validation.failed', (errors[0] as FieldError).message, errors);
}

/**
 * The request's origin plus the OIDC interaction the user came from (the consent screen's "Verify now" sends its uid
 * in X-Attestly-Interaction), so that the verification counts for that partner's site (modules/partners/stats).
 */
const verificationOrigin = (ctx: Context) => ({
  ...origin(ctx),
  interaction: ctx.get('X-Attestly-Interaction') || null,
});

/** What these routes take from the app (services.ts builds it and passes it in). */
export type VerificationRoutesServices = Pick<Deps, 'clock'> & {
  verifications: VerificationModule;
  sessions: SessionService;
  limiter: RateLimiter;
  requireUser: Middleware;
};

/**
 * Verification endpoints (spec 01 §7 "User" and "Age verification by camera"; DESIGN.md §5). Every route acts on
 * the signed-in user only. Attempts are rate-limited per user: the facial estimate is probabilistic, so
 * unlimited retries would let someone resubmit until a lucky frame clears the cut-off.
 */
export function verificationRoutes(services: VerificationRoutesServices): Router {
  const { verifications, sessions, limiter, requireUser, clock } = services;
  const router = createRouter();
  const userId = (ctx: Context) => (ctx.state.session as Session).subject_id;
  const perUser = (name: string, limit: number, message: string) =>
    rateLimit(limiter, { name, limit, windowMs: hour }, userId, message);
  const route = routes(router, { tag: 'Verification' });
  const requireUserForAge = requireSession(sessions, ['user'], {
    missing: 'Please log in to verify your age',
    invalid: 'Please log in to verify your age',
  });

  route.post('/age-verification/challenges', {
    summary: 'Start a video check: get the liveness challenge the video must answer',
    description:
      'Issue 23: a single-use challenge for the signed-in user, kept in the database (any replica can check it) and expiring after 60 seconds. `steps` are two or three motions (`turn_left`, `turn_right`, `blink`; left and right are the person’s own) in random order, each with a window in seconds from the start of a recording of `recording_seconds`. Show each `prompt` while its window runs, record, and send the video with `challenge_id` to /age-verification/verify-age or, as `selfie_video`, to /users/verify/document. A motion counts up to `tolerance_seconds` outside its window (the offset between the prompt schedule and the first recorded frame, and reaction time). Photos need no challenge.',
    responses: {
      201: ok('The challenge', livenessChallengeSchema),
    },
    guards: [
      requireUserForAge,
      perUser(
        'liveness-challenge:user',
        30,
        'Too many video checks started in the last hour. Please try again later or use a document.',
      ),
    ],
    status: 201,
    handler: ({ ctx }) => verifications.challenges.issue(userId(ctx)),
  });

  route.post('/age-verification/verify-age', {
    summary: 'Verify your age with a photo or a 5-second video',
    description:
      'Multipart fields `media_file` and `media_type` (spec 01 §7 "Age verification by camera"). The face must clear a calibrated cut-off for the threshold (default 18); a video must also answer a fresh liveness challenge from POST /age-verification/challenges (its `challenge_id`; the motions in order inside their windows) as well as showing a head turn and a blink. A single photo cannot show that a live person is present, so unless the operator allows it (`ATTESTLY_PHOTO_CAN_APPROVE`) a photo is rejected with a message pointing to video or document. Without a token the answer is 401 "Please log in to verify your age". The media is never stored.',
    documentedBody: ageVerificationUploadSchema,
    multipart: true,
    responses: {
      200: ok(
        'The decision, approved or rejected, with the estimate and the liveness fields',
        ageVerificationResultSchema,
      ),
      422: ok(
        'Missing or unreadable file, no face, several faces, a video over 5 seconds, or a video without a fresh challenge of yours (`verification.challenge_required`, `challenge_invalid`, `challenge_expired`, `challenge_used`); `detail` says what to do',
        errorEnvelopeSchema,
      ),
      503: ok(
        'The vision engine is starting, busy or turned off; retry after the Retry-After header',
        errorEnvelopeSchema,
      ),
    },
    guards: [
      requireUserForAge,
      perUser(
        'verify-face:user',
        20,
        'Too many age checks in the last hour. Please try again later or use a document.',
      ),
    ],
    handler: async ({ ctx }) => {
      const { files, fields } = await readMultipart(ctx, {
        fileFields: ['media_file'],
        maxFileBytes: LIMITS.videoBytes,
        tooLargeMessage: `The file is too large: a photo must be at most ${mb(VERIFICATION_LIMITS.photoBytes)}MB and a video at most ${mb(LIMITS.videoBytes)}MB`,
        accept: [...IMAGE_TYPES, ...VIDEO_TYPES],
        wrongTypeMessage: 'Please send a JPEG, PNG or WebP photo, or a WebM or MP4 video',
      });
      const input = parseFields(ageVerificationFields, fields);
      const file = files[0];
      assert(file, 422, 'validation.failed', 'Please take a photo or record a video first', [
        { path: 'media_file', message: 'Please take a photo or record a video first' },
      ]);
      const isImage = IMAGE_TYPES.includes(file.mime);
      if (input.media_type === 'image' && !isImage) {
        throw new AppError(
          415,
          'upload.unsupported_type',
          'media_type is image, but the file is a video. Send a JPEG, PNG or WebP photo.',
        );
      }
      if (input.media_type === 'video' && isImage) {
        throw new AppError(
          415,
          'upload.unsupported_type',
          'media_type is video, but the file is a photo. Send a WebM or MP4 video.',
        );
      }
      if (isImage && file.bytes.length > VERIFICATION_LIMITS.photoBytes) {
        throw new AppError(
          413,
          'upload.too_large',
          `The photo must be at most ${mb(VERIFICATION_LIMITS.photoBytes)}MB`,
        );
      }
      return verifications.facial.verify(
        userId(ctx),
        {
          bytes: file.bytes,
          mime: file.mime,
          mediaType: input.media_type,
          threshold: input.age_threshold,
          challengeId: input.challenge_id,
        },
        verificationOrigin(ctx),
      );
    },
  });

  route.post('/users/verify/document', {
    summary: 'Verify your age or identity with a passport or ID card',
    description:
      'Multipart fields `file`, `selfie_video` (with the `challenge_id` it answers, from POST /age-verification/challenges) and `document_type`. The ICAO 9303 machine-readable zone is read on the box; check digits, expiry and age are checked. A claim is approved automatically only when the document is also bound to its holder: a portrait face is found on the document, the live video passes its challenge and matches the portrait, the printed dates agree with the MRZ where readable, and the document (known only by a keyed hash of its number) is not proving another account. Anything short of that waits for a reviewer (status `pending`, `needs_manual_review`, `document_analysis.holder_binding.review_reasons`) and only then are the document and the video kept, encrypted, until the review or the retention limit. Authenticity features are not checked (`authentic` is null).',
    documentedBody: documentUploadSchema,
    multipart: true,
    responses: {
      201: ok('The decision and the document analysis', documentAnswerSchema),
      422: ok(
        'No file, an invalid field, or a selfie_video without a fresh challenge of yours (`verification.challenge_*`)',
        errorEnvelopeSchema,
      ),
      503: ok(
        'The document reader is starting, busy or turned off; retry after the Retry-After header',
        errorEnvelopeSchema,
      ),
    },
    guards: [
      requireUser,
      perUser(
        'verify-document:user',
        10,
        'Too many document uploads in the last hour. Please try again later.',
      ),
    ],
    status: 201,
    handler: async ({ ctx }) => {
      const { files, fields } = await readMultipart(ctx, {
        // The document, and the live challenge video recorded in the same flow (issue 14: bound to the holder).
        fileFields: ['file', 'selfie_video'],
        maxFileBytes: Math.max(VERIFICATION_LIMITS.documentBytes, LIMITS.videoBytes),
        tooLargeMessage: VERIFICATION_LIMITS.documentTooLargeMessage,
        accept: [...IMAGE_TYPES, 'application/pdf', ...VIDEO_TYPES],
        wrongTypeMessage: VERIFICATION_LIMITS.documentTypeMessage,
      });
      const input = parseFields(documentVerificationFields, fields);
      const file = files.find((f) => f.field === 'file');
      assert(file, 422, 'validation.failed', VERIFICATION_LIMITS.documentRequiredMessage, [
        { path: 'file', message: VERIFICATION_LIMITS.documentRequiredMessage },
      ]);
      if (VIDEO_TYPES.includes(file.mime)) {
        throw new AppError(415, 'upload.unsupported_type', VERIFICATION_LIMITS.documentTypeMessage);
      }
      if (file.bytes.length > VERIFICATION_LIMITS.documentBytes) {
        throw new AppError(413, 'upload.too_large', VERIFICATION_LIMITS.documentTooLargeMessage);
      }
      const video = files.find((f) => f.field === 'selfie_video') ?? null;
      if (video && !VIDEO_TYPES.includes(video.mime)) {
        throw new AppError(415, 'upload.unsupported_type', VERIFICATION_LIMITS.selfieVideoTypeMessage);
      }
      const result = await verifications.document.verify(
        userId(ctx),
        {
          bytes: file.bytes,
          mime: file.mime,
          video: video ? { bytes: video.bytes, mime: video.mime } : null,
          documentType: input.document_type,
          threshold: input.age_threshold,
          verificationType: input.verification_type,
          challengeId: input.challenge_id,
        },
        verificationOrigin(ctx),
      );
      return {
        message: result.message,
        verification_id: result.verification.id,
        status: result.verification.status,
        needs_manual_review: result.verification.needs_manual_review,
        document_analysis: result.document_analysis,
        verification: result.verification,
      };
    },
  });

  const verifyLocation = async (ctx: Context) => {
    const result = await verifications.location.verify(userId(ctx), ctx.ip, verificationOrigin(ctx));
    ctx.status = 201;
    ctx.body = {
      message: result.message,
      verification_id: result.verification.id,
      status: result.verification.status,
      verification: result.verification,
    };
  };

  const locationLimit = perUser(
    'verify-location:user',
    10,
    'Too many location checks in the last hour. Please try again later.',
  );

  // The card check's own routes, mounted only where the operator configured Stripe (card-routes.ts).
  const card = cardCheckRoutes({
    card: verifications.card,
    requireUser,
    userId,
    origin: verificationOrigin,
    perUser,
  });
  router.use(card.router.routes());

  route.post('/users/verify/location', {
    summary: 'Verify your location from your connection',
    description:
      'The address the request comes from is looked up in an on-box geolocation database (GeoLite2 City by MaxMind, CC BY-SA 4.0, packaged by ip-location-db) and compared with the country and state on your profile. Private and non-routable addresses cannot be located.',
    responses: {
      201: ok('The decision with the located country and region', verificationAnswerSchema),
      422: ok('No country on your profile to compare with', errorEnvelopeSchema),
    },
    guards: [requireUser, locationLimit],
    handler: ({ ctx }) => verifyLocation(ctx),
  });

  /** spec 01 §7: one entry point with `method` plus that method's fields. Uploads need their multipart routes. */
  route.post('/users/verify', {
    summary: 'Verify by method',
    description:
      '`method` is `credit_card` (with the `setup_intent_id` of /users/verify/credit-card, where card checks are available) or `ip_geolocation`/`location`. Uploads cannot travel as JSON: `document` and `facial_recognition` answer 422 naming the multipart route to use.',
    // The method's limit is applied inside the handler, so the route itself mounts no rateLimit().
    limited: true,
    responses: { 201: ok('The decision', verificationAnswerSchema) },
    guards: [requireUser],
    input: { body: verifyBody },
    handler: async ({ body: { method }, ctx }) => {
      // Both answer for themselves (status 201 and the body), as their own routes do.
      if (method === 'credit_card') {
        await card.finish(ctx, () => Promise.resolve());
        return;
      }
      if (method === 'ip_geolocation' || method === 'location') {
        await locationLimit(ctx, () => verifyLocation(ctx));
        return;
      }
      if (method === 'document') {
        throw new AppError(
          422,
          'verification.use_document_route',
          'Upload the document as multipart/form-data to POST /api/v1/users/verify/document (fields file and document_type).',
        );
      }
      throw new AppError(
        422,
        'verification.use_camera_route',
        'Send the photo or video as multipart/form-data to POST /api/v1/age-verification/verify-age (fields media_file and media_type).',
      );
    },
  });

  route.get('/users/verification-status', {
    summary: 'What you have proven',
    description:
      'Age (with the minimum age proven), location and identity, each with when it was proven and until when it is valid; the overall state (spec 01 §4) and your 10 most recent verifications.',
    responses: { 200: ok('Your verification status', verificationStatusSchema) },
    guards: [requireUser],
    handler: ({ ctx }) => verifications.status(userId(ctx)),
  });

  route.get('/users/verifications', {
    summary: 'List your verifications',
    responses: { 200: ok('Verifications, newest first', verificationListSchema) },
    guards: [requireUser],
    input: { query: paging },
    handler: async ({ query, ctx }) => {
      const { rows, total } = await verifications.list(userId(ctx), query.skip, query.limit);
      const now = clock.now();
      return { verifications: rows.map((row) => presentVerification(row, now)), total_count: total };
    },
  });

  route.get('/users/verifications/:id', {
    summary: 'Read one of your verifications',
    responses: {
      200: ok('Verification', verificationSummarySchema),
      404: ok('Not one of your verifications'),
    },
    guards: [requireUser],
    handler: async ({ ctx }) => {
      const id = ctx.params.id ?? '';
      assert(/^[0-9a-f-]{36}$/i.test(id), 404, 'not_found', 'Verification not found');
      return presentVerification(await verifications.ownedBy(userId(ctx), id), clock.now());
    },
  });

  return router;
}

const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));

import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type * as v from 'valibot';
import {
  LIMITS,
  changePasswordBody,
  deleteAccountBody,
  emailVerifiedSchema,
  forgotPasswordBody,
  loginResponseSchema,
  loginBody,
  messageSchema,
  phoneCodeSentSchema,
  photoUploadSchema,
  profileBody,
  registerBody,
  resetPasswordBody,
  sendPhoneVerificationBody,
  sessionIdParams,
  sessionListSchema,
  updatedProfileSchema,
  userExportSchema,
  userProfileSchema,
  verifyEmailBody,
  verifyPhoneBody,
} from '@attestly/contracts';
import { assert, notFound } from '../../../errors';
import { validate } from '../../../middleware/validate';
import { describeRoute, ok } from '../../../middleware/describe';
import { rateLimit } from '../../../middleware/rate-limit';
import { readMultipart } from '../../../middleware/multipart';
import type { SessionRecord } from '../../shared/sessions/service';
import { reencodeImage } from '../../../lib/images';
import { createUserExport } from './export';
import type { Deps } from '../../../core/deps';
import { origin } from '../../../lib/request-origin';
import type { AuditService } from '../../shared/audit/service';
import type { RateLimiter } from '../../shared/rate-limit/service';
import type { SessionService } from '../../shared/sessions/service';
import type { UserService } from './service';
import { presentSession } from './presenters';

const input = <T extends v.GenericSchema>(ctx: Context, _schema: T) =>
  ctx.state.input.body as v.InferOutput<T>;

const minute = 60_000;

/** What these routes take from the app (services.ts builds it and passes it in). */
export type UserRoutesServices = Pick<Deps, 'db' | 'clock' | 'phone'> & {
  users: UserService;
  sessions: SessionService;
  limiter: RateLimiter;
  audit: AuditService;
  requireUser: Middleware;
};

/** spec 01 §7 "User": accounts, sessions, profile, contact verification and password reset. */
export function userRoutes(services: UserRoutesServices): Router {
  const { users, sessions, limiter, requireUser } = services;
  const router = new Router();
  const session = (ctx: Context) => ctx.state.session as SessionRecord;

  router.post(
    '/users/register',
    describeRoute({
      tag: 'Accounts',
      summary: 'Create an account',
      description:
        'The answer is the same whether or not the address is already registered; its owner is told by mail.',
      responses: { 201: ok('Account created', messageSchema) },
    }),
    rateLimit(
      limiter,
      { name: 'register:ip', limit: 10, windowMs: 60 * minute },
      (ctx) => ctx.ip,
      'Too many sign-ups from this address. Please try again later.',
    ),
    validate({ body: registerBody }),
    async (ctx) => {
      await users.register(input(ctx, registerBody), origin(ctx));
      ctx.status = 201;
      ctx.body = { message: 'Account created successfully! Please sign in.' };
    },
  );

  router.post(
    '/users/login',
    describeRoute({
      tag: 'Accounts',
      summary: 'Sign in',
      description:
        'Returns an opaque bearer token (prefix `atu_`). `rememberMe` chooses the long-lived session; repeated failures lock the account for a while.',
      responses: { 200: ok('Signed in', loginResponseSchema) },
    }),
    rateLimit(
      limiter,
      { name: 'login:ip', limit: 30, windowMs: minute },
      (ctx) => ctx.ip,
      'Too many sign-in attempts. Please wait a minute and try again.',
    ),
    validate({ body: loginBody }),
    async (ctx) => {
      const { user, token, session: created } = await users.login(input(ctx, loginBody), origin(ctx));
      ctx.body = {
        user: await users.profileOf(user),
        access_token: token,
        token_type: 'Bearer',
        expires_at: created.expires_at.toISOString(),
      };
    },
  );

  router.post(
    '/users/forgot-password',
    describeRoute({
      tag: 'Security',
      summary: 'Mail a password reset link',
      description: 'Always answers 202, so it cannot be used to find out who has an account.',
      responses: { 202: ok('Accepted', messageSchema) },
    }),
    rateLimit(limiter, { name: 'forgot:ip', limit: 10, windowMs: 15 * minute }, (ctx) => ctx.ip),
    validate({ body: forgotPasswordBody }),
    async (ctx) => {
      await users.forgotPassword(input(ctx, forgotPasswordBody).email, origin(ctx));
      ctx.status = 202;
      ctx.body = {
        message: 'If an account exists for that email, we have sent a link to reset the password.',
      };
    },
  );

  router.post(
    '/users/reset-password',
    describeRoute({
      tag: 'Security',
      summary: 'Set a new password with a reset link',
      description: 'Signs out every session of the account.',
      responses: { 200: ok('Password reset', messageSchema) },
    }),
    rateLimit(limiter, { name: 'reset:ip', limit: 20, windowMs: 15 * minute }, (ctx) => ctx.ip),
    validate({ body: resetPasswordBody }),
    async (ctx) => {
      await users.resetPassword(input(ctx, resetPasswordBody), origin(ctx));
      ctx.body = { message: 'Your password has been reset. Please sign in.' };
    },
  );

  router.post(
    '/users/verify-email',
    describeRoute({
      tag: 'Profile',
      summary: 'Confirm an email address',
      description: 'The token comes from the link in the verification mail.',
      responses: { 200: ok('Verified', emailVerifiedSchema) },
    }),
    rateLimit(limiter, { name: 'verify-email:ip', limit: 20, windowMs: 15 * minute }, (ctx) => ctx.ip),
    validate({ body: verifyEmailBody }),
    async (ctx) => {
      const user = await users.verifyEmail(input(ctx, verifyEmailBody).token, origin(ctx));
      ctx.body = {
        message: 'Your email address is verified.',
        email_verified_at: user.email_verified_at?.toISOString(),
      };
    },
  );

  router.post(
    '/users/refresh-token',
    describeRoute({
      tag: 'Accounts',
      summary: 'Rotate the session token',
      description: 'The old token stops working at once; the remember-me choice is kept.',
      responses: { 200: ok('New token', loginResponseSchema) },
    }),
    requireUser,
    async (ctx) => {
      const { user, token, session: created } = await users.refresh(session(ctx), origin(ctx));
      ctx.body = {
        user: await users.profileOf(user),
        access_token: token,
        token_type: 'Bearer',
        expires_at: created.expires_at.toISOString(),
      };
    },
  );

  router.post(
    '/users/logout',
    describeRoute({
      tag: 'Accounts',
      summary: 'Sign out',
      responses: { 204: ok('Session ended') },
    }),
    requireUser,
    async (ctx) => {
      await users.logout(session(ctx), origin(ctx));
      ctx.status = 204;
    },
  );

  router.get(
    '/users/profile',
    describeRoute({
      tag: 'Profile',
      summary: 'Read your profile',
      responses: { 200: ok('Profile', userProfileSchema) },
    }),
    requireUser,
    async (ctx) => {
      const { subject_id: id, user, ownsPartner } = session(ctx);
      ctx.body = await users.profileOf(await users.readProfile(id, user), user ? ownsPartner : undefined);
    },
  );

  router.put(
    '/users/profile',
    describeRoute({
      tag: 'Profile',
      summary: 'Update your profile',
      description:
        'Changing the phone clears its verified flag. A new email address is only taken once its confirmation link is followed; until then it is `pending_email`.',
      responses: { 200: ok('Updated profile', updatedProfileSchema) },
    }),
    requireUser,
    validate({ body: profileBody }),
    async (ctx) => {
      const { user, pendingEmail } = await users.updateProfile(
        session(ctx).subject_id,
        input(ctx, profileBody),
        origin(ctx),
      );
      // A new address waits for its confirmation link: `email` is still the current one, `pending_email` the asked one.
      ctx.body = {
        ...(await users.profileOf(user)),
        ...(pendingEmail ? { pending_email: pendingEmail } : {}),
      };
    },
  );

  router.post(
    '/users/profile/photo',
    describeRoute({
      tag: 'Profile',
      summary: 'Upload a profile photo',
      description:
        'Multipart field `photo`: a JPG, GIF or PNG of at most 1 MB (the content is sniffed, not trusted).',
      body: photoUploadSchema,
      multipart: true,
      responses: { 200: ok('Updated profile with profile_image_url', userProfileSchema) },
    }),
    requireUser,
    async (ctx) => {
      const { files } = await readMultipart(ctx, {
        fileFields: ['photo'],
        maxFileBytes: LIMITS.profilePhotoBytes,
        tooLargeMessage: 'Profile photo must be 1MB or smaller',
        accept: ['image/jpeg', 'image/png', 'image/gif'],
        wrongTypeMessage: 'Profile photo must be a JPG, GIF or PNG image',
      });
      const file = files[0];
      assert(file, 422, 'validation.failed', 'Please choose a photo to upload', [
        { path: 'photo', message: 'Please choose a photo to upload' },
      ]);
      const picture = await reencodeImage(file.bytes, {
        maxDimension: LIMITS.profilePhotoPixels,
        unreadableMessage: 'Profile photo must be a JPG, GIF or PNG image',
        field: 'photo',
      });
      const user = await users.setProfilePhoto(
        session(ctx).subject_id,
        { ...file, bytes: picture.bytes, mime: picture.contentType },
        origin(ctx),
      );
      ctx.body = await users.profileOf(user);
    },
  );

  router.post(
    '/users/change-password',
    describeRoute({
      tag: 'Security',
      summary: 'Change your password',
      description: 'Signs out every other session.',
      responses: { 200: ok('Changed', messageSchema) },
    }),
    requireUser,
    validate({ body: changePasswordBody }),
    async (ctx) => {
      await users.changePassword(session(ctx), input(ctx, changePasswordBody), origin(ctx));
      ctx.body = { message: 'Password changed. Other sessions have been signed out.' };
    },
  );

  const exportUser = createUserExport(services);
  router.get(
    '/users/export',
    describeRoute({
      tag: 'Profile',
      summary: 'Download your data',
      description:
        'Everything Attestly holds about you as one JSON attachment (GDPR Art. 15 and 20): profile and photo, contact verification, verification records (never media or card data), proven facts, connected sites, sessions, newsletter and audit entries. At most 5 downloads an hour.',
      responses: { 200: ok('The export (Content-Disposition: attachment)', userExportSchema) },
    }),
    requireUser,
    rateLimit(
      limiter,
      { name: 'export:user', limit: 5, windowMs: 60 * minute },
      (ctx) => session(ctx).subject_id,
      'You have downloaded your data several times in the last hour. Please try again later.',
    ),
    async (ctx) => {
      const user = await users.readProfile(session(ctx).subject_id);
      const document = await exportUser(user);
      await services.audit.record({
        event: 'user.data_exported',
        userId: user.id,
        ...origin(ctx),
        details: {
          verifications: document.verifications.length,
          connected_sites: document.connected_sites.length,
          audit_entries: document.audit_entries.length,
        },
      });
      ctx.set('Cache-Control', 'no-store');
      ctx.set(
        'Content-Disposition',
        `attachment; filename="attestly-data-${document.exported_at.slice(0, 10)}.json"`,
      );
      ctx.body = document;
    },
  );

  router.delete(
    '/users/account',
    describeRoute({
      tag: 'Security',
      summary: 'Delete your account',
      description: 'Requires the password; signs out everywhere.',
      responses: { 204: ok('Account deleted') },
    }),
    requireUser,
    validate({ body: deleteAccountBody }),
    async (ctx) => {
      await users.deleteAccount(session(ctx), input(ctx, deleteAccountBody).password, origin(ctx));
      ctx.status = 204;
    },
  );

  router.post(
    '/users/send-email-verification',
    describeRoute({
      tag: 'Profile',
      summary: 'Email a verification link',
      limited: true,
      responses: { 202: ok('Mail sent', messageSchema) },
    }),
    requireUser,
    async (ctx) => {
      await users.requestEmailVerification(session(ctx).subject_id, origin(ctx));
      ctx.status = 202;
      ctx.body = { message: 'Verification email sent' };
    },
  );

  router.post(
    '/users/send-phone-verification',
    describeRoute({
      tag: 'Profile',
      summary: 'Text a 6-digit code to your phone',
      description: 'Uses the given phone, or the one on the profile.',
      limited: true,
      responses: { 202: ok('Code sent', phoneCodeSentSchema) },
    }),
    requireUser,
    validate({ body: sendPhoneVerificationBody }),
    async (ctx) => {
      await users.requestPhoneVerification(
        session(ctx).subject_id,
        input(ctx, sendPhoneVerificationBody).phone ?? null,
        origin(ctx),
      );
      ctx.status = 202;
      // `delivery: 'log'` tells the screen that no SMS gateway is configured: the operator has the code.
      ctx.body = {
        message: 'Verification code sent',
        delivery: services.phone.transport === 'log' ? 'log' : 'sms',
      };
    },
  );

  router.post(
    '/users/verify-phone',
    describeRoute({
      tag: 'Profile',
      summary: 'Confirm your phone with the code',
      limited: true,
      responses: { 200: ok('Updated profile', userProfileSchema) },
    }),
    requireUser,
    validate({ body: verifyPhoneBody }),
    async (ctx) => {
      const user = await users.verifyPhone(
        session(ctx).subject_id,
        input(ctx, verifyPhoneBody).code,
        origin(ctx),
      );
      ctx.body = await users.profileOf(user);
    },
  );

  router.get(
    '/users/sessions',
    describeRoute({
      tag: 'Security',
      summary: 'List your active sessions',
      responses: { 200: ok('Sessions, newest first', sessionListSchema) },
    }),
    requireUser,
    async (ctx) => {
      const current = session(ctx);
      const list = await sessions.list('user', current.subject_id);
      ctx.body = { sessions: list.map((item) => presentSession(item, current.id)), total_count: list.length };
    },
  );

  router.delete(
    '/users/sessions/:id',
    describeRoute({
      tag: 'Security',
      summary: 'Sign out one session',
      responses: { 204: ok('Session ended') },
    }),
    requireUser,
    validate({ params: sessionIdParams }),
    async (ctx) => {
      const { id } = ctx.state.input.params as v.InferOutput<typeof sessionIdParams>;
      await users.revokeSession(session(ctx), id, origin(ctx));
      ctx.status = 204;
    },
  );

  return router;
}

/** Profile photos at capability URLs (see UserPhoto). Public by design; the key is 192 random bits. */
export function mediaRoutes(services: UserRoutesServices): Router {
  const router = new Router();
  router.get(
    '/media/profile-photos/:key',
    describeRoute({
      tag: 'Profile',
      summary: 'Fetch a profile photo',
      description: 'Capability URL: the key is 192 random bits and is only ever shown to the photo’s owner.',
      responses: { 200: { description: 'The image', contentType: 'image/*' }, 404: ok('No such photo') },
    }),
    async (ctx) => {
      const key = ctx.params.key ?? '';
      const photo = /^[A-Za-z0-9_-]{32}$/.test(key) ? await services.users.profilePhoto(key) : null;
      if (!photo) throw notFound();
      ctx.type = photo.content_type;
      ctx.set('Cache-Control', 'private, max-age=31536000, immutable');
      ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
      ctx.body = photo.bytes;
    },
  );
  return router;
}

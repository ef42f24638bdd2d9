import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
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
import { ok } from '../../../middleware/describe';
import { createRouter, confirms, routes, signOut } from '../../../middleware/route';
import { rateLimit } from '../../../middleware/rate-limit';
import { readMultipart } from '../../../middleware/multipart';
import { bearerAnswer, type SessionRecord } from '../../shared/sessions/service';
import { reencodeImage } from '../../../lib/images';
import { createUserExport } from './export';
import type { Deps } from '../../../core/deps';
import { origin } from '../../../lib/request-origin';
import type { AuditService } from '../../shared/audit/service';
import type { RateLimiter } from '../../shared/rate-limit/service';
import type { SessionService } from '../../shared/sessions/service';
import type { UserService } from './service';
import { presentSession } from './presenters';

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
  const router = createRouter();
  const session = (ctx: Context) => ctx.state.session as SessionRecord;

  const account = routes(router, { tag: 'Accounts' });
  const profile = routes(router, { tag: 'Profile' });
  const security = routes(router, { tag: 'Security' });
  const perAddress = (name: string, limit: number, windowMs: number, message?: string) =>
    rateLimit(limiter, { name: `${name}:ip`, limit, windowMs }, (ctx) => ctx.ip, message);
  const signedIn = async (answer: Awaited<ReturnType<UserService['login']>>) => ({
    user: await users.profileOf(answer.user),
    ...bearerAnswer(answer),
  });

  account.post('/users/register', {
    summary: 'Create an account',
    description:
      'The answer is the same whether or not the address is already registered; its owner is told by mail.',
    responses: { 201: ok('Account created', messageSchema) },
    guards: [
      perAddress('register', 10, 60 * minute, 'Too many sign-ups from this address. Please try again later.'),
    ],
    input: { body: registerBody },
    status: 201,
    handler: confirms('Account created successfully! Please sign in.', ({ body, ctx }) =>
      users.register(body, origin(ctx)),
    ),
  });

  account.post('/users/login', {
    summary: 'Sign in',
    description:
      'Returns an opaque bearer token (prefix `atu_`). `rememberMe` chooses the long-lived session; repeated failures lock the account for a while.',
    responses: { 200: ok('Signed in', loginResponseSchema) },
    guards: [
      perAddress('login', 30, minute, 'Too many sign-in attempts. Please wait a minute and try again.'),
    ],
    input: { body: loginBody },
    handler: async ({ body, ctx }) => signedIn(await users.login(body, origin(ctx))),
  });

  security.post('/users/forgot-password', {
    summary: 'Mail a password reset link',
    description: 'Always answers 202, so it cannot be used to find out who has an account.',
    responses: { 202: ok('Accepted', messageSchema) },
    guards: [perAddress('forgot', 10, 15 * minute)],
    input: { body: forgotPasswordBody },
    status: 202,
    handler: confirms(
      'If an account exists for that email, we have sent a link to reset the password.',
      ({ body, ctx }) => users.forgotPassword(body.email, origin(ctx)),
    ),
  });

  security.post('/users/reset-password', {
    summary: 'Set a new password with a reset link',
    description: 'Signs out every session of the account.',
    responses: { 200: ok('Password reset', messageSchema) },
    guards: [perAddress('reset', 20, 15 * minute)],
    input: { body: resetPasswordBody },
    handler: confirms('Your password has been reset. Please sign in.', ({ body, ctx }) =>
      users.resetPassword(body, origin(ctx)),
    ),
  });

  profile.post('/users/verify-email', {
    summary: 'Confirm an email address',
    description: 'The token comes from the link in the verification mail.',
    responses: { 200: ok('Verified', emailVerifiedSchema) },
    guards: [perAddress('verify-email', 20, 15 * minute)],
    input: { body: verifyEmailBody },
    handler: async ({ body, ctx }) => {
      const user = await users.verifyEmail(body.token, origin(ctx));
      return {
        message: 'Your email address is verified.',
        email_verified_at: user.email_verified_at?.toISOString(),
      };
    },
  });

  account.post('/users/refresh-token', {
    summary: 'Rotate the session token',
    description: 'The old token stops working at once; the remember-me choice is kept.',
    responses: { 200: ok('New token', loginResponseSchema) },
    guards: [requireUser],
    handler: async ({ ctx }) => signedIn(await users.refresh(session(ctx), origin(ctx))),
  });

  account.post('/users/logout', signOut(requireUser, users.logout));

  profile.get('/users/profile', {
    summary: 'Read your profile',
    responses: { 200: ok('Profile', userProfileSchema) },
    guards: [requireUser],
    handler: async ({ ctx }) => {
      const { subject_id: id, user, ownsPartner } = session(ctx);
      return users.profileOf(await users.readProfile(id, user), user ? ownsPartner : undefined);
    },
  });

  profile.put('/users/profile', {
    summary: 'Update your profile',
    description:
      'Changing the phone clears its verified flag. A new email address is only taken once its confirmation link is followed; until then it is `pending_email`.',
    responses: { 200: ok('Updated profile', updatedProfileSchema) },
    guards: [requireUser],
    input: { body: profileBody },
    handler: async ({ body, ctx }) => {
      const { user, pendingEmail } = await users.updateProfile(session(ctx).subject_id, body, origin(ctx));
      // A new address waits for its confirmation link: `email` is still the current one, `pending_email` the asked one.
      return { ...(await users.profileOf(user)), ...(pendingEmail ? { pending_email: pendingEmail } : {}) };
    },
  });

  profile.post('/users/profile/photo', {
    summary: 'Upload a profile photo',
    description:
      'Multipart field `photo`: a JPG, GIF or PNG of at most 1 MB (the content is sniffed, not trusted).',
    documentedBody: photoUploadSchema,
    multipart: true,
    responses: { 200: ok('Updated profile with profile_image_url', userProfileSchema) },
    guards: [requireUser],
    handler: async ({ ctx }) => {
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
      return users.profileOf(user);
    },
  });

  security.post('/users/change-password', {
    summary: 'Change your password',
    description: 'Signs out every other session.',
    responses: { 200: ok('Changed', messageSchema) },
    guards: [requireUser],
    input: { body: changePasswordBody },
    handler: confirms('Password changed. Other sessions have been signed out.', ({ body, ctx }) =>
      users.changePassword(session(ctx), body, origin(ctx)),
    ),
  });

  const exportUser = createUserExport(services);
  profile.get('/users/export', {
    summary: 'Download your data',
    description:
      'Everything Attestly holds about you as one JSON attachment (GDPR Art. 15 and 20): profile and photo, contact verification, verification records (never media or card data), proven facts, connected sites, sessions, newsletter and audit entries. At most 5 downloads an hour.',
    responses: { 200: ok('The export (Content-Disposition: attachment)', userExportSchema) },
    guards: [
      requireUser,
      rateLimit(
        limiter,
        { name: 'export:user', limit: 5, windowMs: 60 * minute },
        (ctx) => session(ctx).subject_id,
        'You have downloaded your data several times in the last hour. Please try again later.',
      ),
    ],
    handler: async ({ ctx }) => {
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
      return document;
    },
  });

  security.delete('/users/account', {
    summary: 'Delete your account',
    description: 'Requires the password; signs out everywhere.',
    responses: { 204: ok('Account deleted') },
    guards: [requireUser],
    input: { body: deleteAccountBody },
    status: 204,
    handler: async ({ body, ctx }) => {
      await users.deleteAccount(session(ctx), body.password, origin(ctx));
    },
  });

  profile.post('/users/send-email-verification', {
    summary: 'Email a verification link',
    limited: true,
    responses: { 202: ok('Mail sent', messageSchema) },
    guards: [requireUser],
    status: 202,
    handler: async ({ ctx }) => {
      await users.requestEmailVerification(session(ctx).subject_id, origin(ctx));
      return { message: 'Verification email sent' };
    },
  });

  profile.post('/users/send-phone-verification', {
    summary: 'Text a 6-digit code to your phone',
    description: 'Uses the given phone, or the one on the profile.',
    limited: true,
    responses: { 202: ok('Code sent', phoneCodeSentSchema) },
    guards: [requireUser],
    input: { body: sendPhoneVerificationBody },
    status: 202,
    handler: async ({ body, ctx }) => {
      await users.requestPhoneVerification(session(ctx).subject_id, body.phone ?? null, origin(ctx));
      // `delivery: 'log'` tells the screen that no SMS gateway is configured: the operator has the code.
      return {
        message: 'Verification code sent',
        delivery: services.phone.transport === 'log' ? 'log' : 'sms',
      };
    },
  });

  profile.post('/users/verify-phone', {
    summary: 'Confirm your phone with the code',
    limited: true,
    responses: { 200: ok('Updated profile', userProfileSchema) },
    guards: [requireUser],
    input: { body: verifyPhoneBody },
    handler: async ({ body, ctx }) =>
      users.profileOf(await users.verifyPhone(session(ctx).subject_id, body.code, origin(ctx))),
  });

  security.get('/users/sessions', {
    summary: 'List your active sessions',
    responses: { 200: ok('Sessions, newest first', sessionListSchema) },
    guards: [requireUser],
    handler: async ({ ctx }) => {
      const current = session(ctx);
      const list = await sessions.list('user', current.subject_id);
      return { sessions: list.map((item) => presentSession(item, current.id)), total_count: list.length };
    },
  });

  security.delete('/users/sessions/:id', {
    summary: 'Sign out one session',
    responses: { 204: ok('Session ended') },
    guards: [requireUser],
    input: { params: sessionIdParams },
    status: 204,
    handler: async ({ params, ctx }) => {
      await users.revokeSession(session(ctx), params.id, origin(ctx));
    },
  });

  return router;
}

/** Profile photos at capability URLs (see UserPhoto). Public by design; the key is 192 random bits. */
export function mediaRoutes(services: UserRoutesServices): Router {
  const router = createRouter();
  routes(router, { tag: 'Profile' }).get('/media/profile-photos/:key', {
    summary: 'Fetch a profile photo',
    description: 'Capability URL: the key is 192 random bits and is only ever shown to the photo’s owner.',
    responses: { 200: { description: 'The image', contentType: 'image/*' }, 404: ok('No such photo') },
    handler: async ({ ctx }) => {
      const key = ctx.params.key ?? '';
      const photo = /^[A-Za-z0-9_-]{32}$/.test(key) ? await services.users.profilePhoto(key) : null;
      if (!photo) throw notFound();
      ctx.type = photo.content_type;
      ctx.set('Cache-Control', 'private, max-age=31536000, immutable');
      ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
      return photo.bytes;
    },
  });
  return router;
}

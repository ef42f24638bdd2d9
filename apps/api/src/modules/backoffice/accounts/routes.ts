import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type * as v from 'valibot';
import {
  adminEnable2faBody,
  admin2faSetupSchema,
  adminLoginBody,
  adminLoginResponseSchema,
  adminMeSchema,
  adminSetup2faBody,
  adminTokenResponseSchema,
  adminVerify2faBody,
} from '@attestly/contracts';
import { rateLimit } from '../../../middleware/rate-limit';
import { validate } from '../../../middleware/validate';
import { describeRoute, ok } from '../../../middleware/describe';
import type { RateLimiter } from '../../shared/rate-limit/service';
import type { AdminService } from './service';
import type { SessionRecord } from '../../shared/sessions/service';
import { origin } from '../../../lib/request-origin';
import { presentAdmin } from './presenters';

const minute = 60_000;
const body = <T extends v.GenericSchema>(ctx: Context, _schema: T) =>
  ctx.state.input.body as v.InferOutput<T>;
const session = (ctx: Context) => ctx.state.session as SessionRecord;

/** What these routes take from the app (services.ts builds it and passes it in). */
export type AdminAuthRoutesServices = {
  admins: AdminService;
  limiter: RateLimiter;
  requireAdmin: Middleware;
  requireAdminSetup: Middleware;
};

/** spec 02 §7 "Admin authentication": password, then TOTP (or first-time TOTP setup with an `ats_` token). */
export function adminAuthRoutes(services: AdminAuthRoutesServices): Router {
  const { admins, limiter, requireAdmin, requireAdminSetup } = services;
  const router = new Router({ prefix: '/auth/admin' });
  const perAddress = (name: string, limit: number) =>
    rateLimit(
      limiter,
      { name: `admin-${name}:ip`, limit, windowMs: minute },
      (ctx) => ctx.ip,
      'Too many attempts. Please wait a minute and try again.',
    );

  router.post(
    '/login',
    describeRoute({
      tag: 'Admin authentication',
      summary: 'Sign in as an administrator (step 1: password)',
      description:
        'Never hands out a full admin token: the answer asks for the TOTP code (`requires_2fa`, with a short-lived `temp_token`) or, on a first sign-in, for TOTP setup (`requires_2fa_setup`, with an `ats_` setup token).',
      limited: true,
      responses: { 200: ok('The second step to take', adminLoginResponseSchema) },
    }),
    perAddress('login', 20),
    validate({ body: adminLoginBody }),
    async (ctx) => {
      ctx.body = await admins.login(body(ctx, adminLoginBody), origin(ctx));
    },
  );

  router.post(
    '/verify-2fa',
    describeRoute({
      tag: 'Admin authentication',
      summary: 'Sign in as an administrator (step 2: TOTP or backup code)',
      limited: true,
      responses: { 200: ok('The admin token (`ata_`)', adminTokenResponseSchema) },
    }),
    perAddress('2fa', 30),
    validate({ body: adminVerify2faBody }),
    async (ctx) => {
      ctx.body = await admins.verify2fa(body(ctx, adminVerify2faBody), origin(ctx));
    },
  );

  router.post(
    '/setup-2fa',
    describeRoute({
      tag: 'Admin authentication',
      summary: 'Start TOTP setup',
      description:
        'With the `ats_` setup token and the password again. The secret and backup codes are in this answer only.',
      responses: {
        200: ok('The authenticator secret, its QR code and the backup codes', admin2faSetupSchema),
      },
    }),
    requireAdminSetup,
    validate({ body: adminSetup2faBody }),
    async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await admins.setup2fa(session(ctx), body(ctx, adminSetup2faBody).password, origin(ctx));
    },
  );

  router.post(
    '/enable-2fa',
    describeRoute({
      tag: 'Admin authentication',
      summary: 'Finish TOTP setup',
      description: 'With the `ats_` setup token and a current code from the authenticator.',
      responses: { 200: ok('The admin token (`ata_`)', adminTokenResponseSchema) },
    }),
    requireAdminSetup,
    validate({ body: adminEnable2faBody }),
    async (ctx) => {
      ctx.body = await admins.enable2fa(session(ctx), body(ctx, adminEnable2faBody).totp_code, origin(ctx));
    },
  );

  router.post(
    '/logout',
    describeRoute({
      tag: 'Admin authentication',
      summary: 'Sign out',
      responses: { 204: ok('Session ended') },
    }),
    requireAdmin,
    async (ctx) => {
      await admins.logout(session(ctx), origin(ctx));
      ctx.status = 204;
    },
  );

  router.get(
    '/me',
    describeRoute({
      tag: 'Admin authentication',
      summary: 'The signed-in administrator',
      responses: { 200: ok('Administrator', adminMeSchema) },
    }),
    requireAdmin,
    async (ctx) => {
      const admin = await admins.findAdmin(session(ctx).subject_id);
      ctx.body = { ...presentAdmin(admin), backup_codes_left: await admins.backupCodesLeft(admin.id) };
    },
  );

  return router;
}

import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
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
import { ok } from '../../../middleware/describe';
import { createRouter, NO_STORE, routes, signOut } from '../../../middleware/route';
import type { RateLimiter } from '../../shared/rate-limit/service';
import type { AdminService } from './service';
import type { SessionRecord } from '../../shared/sessions/service';
import { origin } from '../../../lib/request-origin';
import { presentAdmin } from './presenters';

const minute = 60_000;
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
  const router = createRouter({ prefix: '/auth/admin' });
  const route = routes(router, { tag: 'Admin authentication' });
  const perAddress = (name: string, limit: number) =>
    rateLimit(
      limiter,
      { name: `admin-${name}:ip`, limit, windowMs: minute },
      (ctx) => ctx.ip,
      'Too many attempts. Please wait a minute and try again.',
    );

  route.post('/login', {
    summary: 'Sign in as an administrator (step 1: password)',
    description:
      'Never hands out a full admin token: the answer asks for the TOTP code (`requires_2fa`, with a short-lived `temp_token`) or, on a first sign-in, for TOTP setup (`requires_2fa_setup`, with an `ats_` setup token).',
    limited: true,
    responses: { 200: ok('The second step to take', adminLoginResponseSchema) },
    guards: [perAddress('login', 20)],
    input: { body: adminLoginBody },
    handler: ({ body, ctx }) => admins.login(body, origin(ctx)),
  });

  route.post('/verify-2fa', {
    summary: 'Sign in as an administrator (step 2: TOTP or backup code)',
    limited: true,
    responses: { 200: ok('The admin token (`ata_`)', adminTokenResponseSchema) },
    guards: [perAddress('2fa', 30)],
    input: { body: adminVerify2faBody },
    handler: ({ body, ctx }) => admins.verify2fa(body, origin(ctx)),
  });

  route.post('/setup-2fa', {
    summary: 'Start TOTP setup',
    description:
      'With the `ats_` setup token and the password again. The secret and backup codes are in this answer only.',
    responses: {
      200: ok('The authenticator secret, its QR code and the backup codes', admin2faSetupSchema),
    },
    guards: [requireAdminSetup],
    input: { body: adminSetup2faBody },
    headers: NO_STORE,
    handler: ({ body, ctx }) => admins.setup2fa(session(ctx), body.password, origin(ctx)),
  });

  route.post('/enable-2fa', {
    summary: 'Finish TOTP setup',
    description: 'With the `ats_` setup token and a current code from the authenticator.',
    responses: { 200: ok('The admin token (`ata_`)', adminTokenResponseSchema) },
    guards: [requireAdminSetup],
    input: { body: adminEnable2faBody },
    handler: ({ body, ctx }) => admins.enable2fa(session(ctx), body.totp_code, origin(ctx)),
  });

  route.post('/logout', signOut(requireAdmin, admins.logout));

  route.get('/me', {
    summary: 'The signed-in administrator',
    responses: { 200: ok('Administrator', adminMeSchema) },
    guards: [requireAdmin],
    handler: async ({ ctx }) => {
      const admin = await admins.findAdmin(session(ctx).subject_id);
      return { ...presentAdmin(admin), backup_codes_left: await admins.backupCodesLeft(admin.id) };
    },
  });

  return router;
}

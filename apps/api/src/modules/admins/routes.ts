import Router from '@koa/router';
import type { Context } from 'koa';
import type * as v from 'valibot';
import {
  adminEnable2faBody,
  adminLoginBody,
  adminSetup2faBody,
  adminVerify2faBody,
} from '@attestly/contracts';
import { rateLimit } from '../../middleware/rate-limit';
import { validate } from '../../middleware/validate';
import type { AppServices } from '../../services';
import type { SessionRecord } from '../sessions/service';
import { origin } from '../users/routes';
import { presentAdmin } from './presenters';

const minute = 60_000;
const body = <T extends v.GenericSchema>(ctx: Context, _schema: T) =>
  ctx.state.input.body as v.InferOutput<T>;
const session = (ctx: Context) => ctx.state.session as SessionRecord;

/** spec 02 §7 "Admin authentication": password, then TOTP (or first-time TOTP setup with an `ats_` token). */
export function adminAuthRoutes(services: AppServices): Router {
  const { admins, limiter, requireAdmin, requireAdminSetup } = services;
  const router = new Router({ prefix: '/auth/admin' });
  const perAddress = (name: string, limit: number) =>
    rateLimit(
      limiter,
      { name: `admin-${name}:ip`, limit, windowMs: minute },
      (ctx) => ctx.ip,
      'Too many attempts. Please wait a minute and try again.',
    );

  router.post('/login', perAddress('login', 20), validate({ body: adminLoginBody }), async (ctx) => {
    ctx.body = await admins.login(body(ctx, adminLoginBody), origin(ctx));
  });

  router.post('/verify-2fa', perAddress('2fa', 30), validate({ body: adminVerify2faBody }), async (ctx) => {
    ctx.body = await admins.verify2fa(body(ctx, adminVerify2faBody), origin(ctx));
  });

  router.post('/setup-2fa', requireAdminSetup, validate({ body: adminSetup2faBody }), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await admins.setup2fa(session(ctx), body(ctx, adminSetup2faBody).password, origin(ctx));
  });

  router.post('/enable-2fa', requireAdminSetup, validate({ body: adminEnable2faBody }), async (ctx) => {
    ctx.body = await admins.enable2fa(session(ctx), body(ctx, adminEnable2faBody).totp_code, origin(ctx));
  });

  router.post('/logout', requireAdmin, async (ctx) => {
    await admins.logout(session(ctx), origin(ctx));
    ctx.status = 204;
  });

  router.get('/me', requireAdmin, async (ctx) => {
    const admin = await admins.findAdmin(session(ctx).subject_id);
    ctx.body = { ...presentAdmin(admin), backup_codes_left: await admins.backupCodesLeft(admin.id) };
  });

  return router;
}

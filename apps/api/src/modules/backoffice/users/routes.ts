import type Router from '@koa/router';
import * as v from 'valibot';
import {
  adminCreateUserBody,
  adminCreatedUserSchema,
  adminDeleteUserBody,
  adminEditUserBody,
  adminFlagUserBody,
  adminIdParams,
  adminLockUserBody,
  adminUnflagUserBody,
  adminUserDetailSchema,
  adminUserListQuery,
  adminUserListSchema,
  adminUserVerificationsQuery,
  adminVerificationListSchema,
} from '@attestly/contracts';
import { validate } from '../../../middleware/validate';
import { describeRoute, ok } from '../../../middleware/describe';
import { actor, input } from '../common';
import type { AdminVerificationService } from '../verifications/service';
import type { AdminUserService } from './service';

const idParams = adminIdParams.user;
const emptyBody = v.object({});

/** spec 02 §7 users calls, plus edit, lock, unlock and delete (real where the reference had notices). */
export function mountUserRoutes(
  router: Router,
  service: AdminUserService,
  verifications: AdminVerificationService,
): void {
  router.get(
    '/users',
    describeRoute({
      tag: 'Admin: users',
      summary: 'List users',
      responses: { 200: ok('Users', adminUserListSchema) },
    }),
    validate({ query: adminUserListQuery }),
    async (ctx) => {
      ctx.body = await service.list(input(ctx, 'query', adminUserListQuery));
    },
  );

  router.post(
    '/users',
    describeRoute({
      tag: 'Admin: users',
      summary: 'Add a user',
      description:
        'With `sign_in: send_invitation` (the default) the person is mailed a link to choose a password (valid 7 ' +
        'days; it also proves the address); with `show_password` the first password is in this answer only.',
      responses: {
        201: ok('The new user', adminCreatedUserSchema),
        409: ok('The address is already registered'),
      },
    }),
    validate({ body: adminCreateUserBody }),
    async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.status = 201;
      ctx.body = await service.create(input(ctx, 'body', adminCreateUserBody), actor(ctx));
    },
  );

  router.get(
    '/users/:id',
    describeRoute({
      tag: 'Admin: users',
      summary: 'Read a user',
      responses: {
        200: ok('User with authorizations and verification history', adminUserDetailSchema),
        404: ok('No such user'),
      },
    }),
    validate({ params: idParams }),
    async (ctx) => {
      ctx.body = await service.detail(input(ctx, 'params', idParams).id);
    },
  );

  router.get(
    '/users/:id/verifications',
    describeRoute({
      tag: 'Admin: users',
      summary: "List a user's verifications",
      responses: { 200: ok('Verifications', adminVerificationListSchema), 404: ok('No such user') },
    }),
    validate({ params: idParams, query: adminUserVerificationsQuery }),
    async (ctx) => {
      const { id } = input(ctx, 'params', idParams);
      await service.detail(id);
      ctx.body = await verifications.list({
        ...input(ctx, 'query', adminUserVerificationsQuery),
        user_id: id,
      });
    },
  );

  router.post(
    '/users/:id/flag',
    describeRoute({
      tag: 'Admin: users',
      summary: 'Flag a user for attention',
      description: 'One open flag per user: flagging again updates it.',
      responses: { 200: ok('Updated user', adminUserDetailSchema), 404: ok('No such user') },
    }),
    validate({ params: idParams, body: adminFlagUserBody }),
    async (ctx) => {
      ctx.body = await service.flag(
        input(ctx, 'params', idParams).id,
        input(ctx, 'body', adminFlagUserBody),
        actor(ctx),
      );
    },
  );

  router.post(
    '/users/:id/unflag',
    describeRoute({
      tag: 'Admin: users',
      summary: "Resolve a user's flag",
      responses: { 200: ok('Updated user', adminUserDetailSchema), 404: ok('No such user') },
    }),
    validate({ params: idParams, body: adminUnflagUserBody }),
    async (ctx) => {
      ctx.body = await service.unflag(
        input(ctx, 'params', idParams).id,
        input(ctx, 'body', adminUnflagUserBody),
        actor(ctx),
      );
    },
  );

  router.put(
    '/users/:id',
    describeRoute({
      tag: 'Admin: users',
      summary: 'Edit a user',
      responses: { 200: ok('Updated user', adminUserDetailSchema), 404: ok('No such user') },
    }),
    validate({ params: idParams, body: adminEditUserBody }),
    async (ctx) => {
      ctx.body = await service.edit(
        input(ctx, 'params', idParams).id,
        input(ctx, 'body', adminEditUserBody),
        actor(ctx),
      );
    },
  );

  router.post(
    '/users/:id/lock',
    describeRoute({
      tag: 'Admin: users',
      summary: 'Lock a user out',
      description: 'For a number of hours or until unlocked; ends every sign-in of the user.',
      responses: { 200: ok('Updated user', adminUserDetailSchema), 404: ok('No such user') },
    }),
    validate({ params: idParams, body: adminLockUserBody }),
    async (ctx) => {
      ctx.body = await service.lock(
        input(ctx, 'params', idParams).id,
        input(ctx, 'body', adminLockUserBody),
        actor(ctx),
      );
    },
  );

  router.post(
    '/users/:id/unlock',
    describeRoute({
      tag: 'Admin: users',
      summary: 'Unlock a user',
      responses: { 200: ok('Updated user', adminUserDetailSchema), 404: ok('No such user') },
    }),
    validate({ params: idParams, body: emptyBody }),
    async (ctx) => {
      ctx.body = await service.unlock(input(ctx, 'params', idParams).id, actor(ctx));
    },
  );

  router.delete(
    '/users/:id',
    describeRoute({
      tag: 'Admin: users',
      summary: 'Delete a user',
      responses: { 204: ok('Deleted'), 404: ok('No such user') },
    }),
    validate({ params: idParams, body: adminDeleteUserBody }),
    async (ctx) => {
      const body = input(ctx, 'body', adminDeleteUserBody);
      await service.remove(input(ctx, 'params', idParams).id, body.reason ?? null, actor(ctx));
      ctx.status = 204;
    },
  );
}

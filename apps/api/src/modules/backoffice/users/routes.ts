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
import { ok } from '../../../middleware/describe';
import { NO_STORE, routes } from '../../../middleware/route';
import { actionOn, actor, listOn, recordOn } from '../common';
import type { AdminVerificationService } from '../verifications/service';
import type { AdminUserService } from './service';

const idParams = adminIdParams.user;
const emptyBody = v.object({});
const updated = { 200: ok('Updated user', adminUserDetailSchema), 404: ok('No such user') };

/** spec 02 §7 users calls, plus edit, lock, unlock and delete (real where the reference had notices). */
export function mountUserRoutes(
  router: Router,
  service: AdminUserService,
  verifications: AdminVerificationService,
): void {
  const route = routes(router, { tag: 'Admin: users' });

  route.get('/users', {
    summary: 'List users',
    responses: { 200: ok('Users', adminUserListSchema) },
    ...listOn(adminUserListQuery, service.list),
  });

  route.post('/users', {
    summary: 'Add a user',
    description:
      'With `sign_in: send_invitation` (the default) the person is mailed a link to choose a password (valid 7 ' +
      'days; it also proves the address); with `show_password` the first password is in this answer only.',
    responses: {
      201: ok('The new user', adminCreatedUserSchema),
      409: ok('The address is already registered'),
    },
    input: { body: adminCreateUserBody },
    status: 201,
    headers: NO_STORE,
    handler: ({ body, ctx }) => service.create(body, actor(ctx)),
  });

  route.get('/users/:id', {
    summary: 'Read a user',
    responses: {
      200: ok('User with authorizations and verification history', adminUserDetailSchema),
      404: ok('No such user'),
    },
    ...recordOn(idParams, service.detail),
  });

  route.get('/users/:id/verifications', {
    summary: "List a user's verifications",
    responses: { 200: ok('Verifications', adminVerificationListSchema), 404: ok('No such user') },
    input: { params: idParams, query: adminUserVerificationsQuery },
    handler: async ({ params, query }) => {
      await service.detail(params.id);
      return verifications.list({ ...query, user_id: params.id });
    },
  });

  route.post('/users/:id/flag', {
    summary: 'Flag a user for attention',
    description: 'One open flag per user: flagging again updates it.',
    responses: updated,
    ...actionOn(idParams, adminFlagUserBody, service.flag),
  });

  route.post('/users/:id/unflag', {
    summary: "Resolve a user's flag",
    responses: updated,
    ...actionOn(idParams, adminUnflagUserBody, service.unflag),
  });

  route.put('/users/:id', {
    summary: 'Edit a user',
    responses: updated,
    ...actionOn(idParams, adminEditUserBody, service.edit),
  });

  route.post('/users/:id/lock', {
    summary: 'Lock a user out',
    description: 'For a number of hours or until unlocked; ends every sign-in of the user.',
    responses: updated,
    ...actionOn(idParams, adminLockUserBody, service.lock),
  });

  route.post('/users/:id/unlock', {
    summary: 'Unlock a user',
    responses: updated,
    input: { params: idParams, body: emptyBody },
    handler: ({ params, ctx }) => service.unlock(params.id, actor(ctx)),
  });

  route.delete('/users/:id', {
    summary: 'Delete a user',
    responses: { 204: ok('Deleted'), 404: ok('No such user') },
    input: { params: idParams, body: adminDeleteUserBody },
    status: 204,
    handler: async ({ params, body, ctx }) => {
      await service.remove(params.id, body.reason ?? null, actor(ctx));
    },
  });
}

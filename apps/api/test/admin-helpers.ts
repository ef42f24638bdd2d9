import { randomBytes } from 'node:crypto';
import { totpCode } from '../src/modules/backoffice/accounts/totp';
import { randomClientIp, type TestApp } from './helpers';

export const ADMIN_PASSWORD = 'admin password 123';

/**
 * The back-office API as a signed-in administrator: `as('/users').get()`. Both are read when a request is made, so a
 * file can build it before its `beforeAll` has created the app and the administrator.
 */
export function adminApi(app: () => TestApp, token: () => string) {
  return (path: string) => {
    const url = `/api/v1/admin${path}`;
    const request = () => app().request;
    const bearer = () => `Bearer ${token()}`;
    return {
      get: () => request().get(url).set('Authorization', bearer()),
      post: (body: Record<string, unknown> = {}) =>
        request().post(url).set('Authorization', bearer()).send(body),
      put: (body: Record<string, unknown>) => request().put(url).set('Authorization', bearer()).send(body),
      delete: (body: Record<string, unknown> = {}) =>
        request().delete(url).set('Authorization', bearer()).send(body),
    };
  };
}

/** The audit entries an administrator wrote, oldest first. */
export async function adminEvents(t: TestApp, adminId: string): Promise<string[]> {
  const rows = await t.db.models.AuditLog.findAll({
    where: { admin_user_id: adminId },
    order: [['id', 'ASC']],
  });
  return rows.map((row) => row.event_type);
}

/** Moves the test clock to the start of the next TOTP step, so a fresh code is not a replay of the last one. */
export function nextStep(t: TestApp): void {
  const now = t.clock.now().getTime();
  t.clock.advance(30_000 - (now % 30_000) + 1);
}

/** Creates an administrator through the service (as the CLI does) and takes it through first sign-in and setup. */
export async function createAdmin(t: TestApp, email = `admin-${randomBytes(4).toString('hex')}@example.com`) {
  const admin = await t.services.admins.createAdmin({
    email,
    password: ADMIN_PASSWORD,
    fullName: 'Ada Admin',
  });
  const ip = randomClientIp();
  const login = await t.request
    .post('/api/v1/auth/admin/login')
    .set('X-Forwarded-For', ip)
    .send({ email, password: ADMIN_PASSWORD })
    .expect(200);
  const setupToken = login.body.access_token as string;
  const setup = await t.request
    .post('/api/v1/auth/admin/setup-2fa')
    .set('Authorization', `Bearer ${setupToken}`)
    .send({ password: ADMIN_PASSWORD })
    .expect(200);
  const secret = setup.body.secret as string;
  const enabled = await t.request
    .post('/api/v1/auth/admin/enable-2fa')
    .set('Authorization', `Bearer ${setupToken}`)
    .send({ totp_code: totpCode(secret, t.clock.now()) })
    .expect(200);
  nextStep(t);
  return {
    id: admin.id,
    email,
    secret,
    setupToken,
    backupCodes: setup.body.backup_codes as string[],
    token: enabled.body.access_token as string,
    ip,
  };
}

/** Signs an existing administrator in with password and a fresh TOTP code. */
export async function signInAdmin(t: TestApp, email: string, secret: string): Promise<string> {
  nextStep(t);
  const login = await t.request
    .post('/api/v1/auth/admin/login')
    .set('X-Forwarded-For', randomClientIp())
    .send({ email, password: ADMIN_PASSWORD })
    .expect(200);
  const verified = await t.request
    .post('/api/v1/auth/admin/verify-2fa')
    .send({ temp_token: login.body.temp_token, code: totpCode(secret, t.clock.now()) })
    .expect(200);
  return verified.body.access_token as string;
}

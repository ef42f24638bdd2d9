import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../src/modules/shared/audit/service';
import { createTestApp, randomClientIp, rowCounts, signUp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

function login(email: string, password: string) {
  return t.request
    .post('/api/v1/users/login')
    .set('X-Forwarded-For', randomClientIp())
    .send({ email, password });
}

describe('POST /users/change-password', () => {
  it('changes the password, keeps this session and signs out the others', async () => {
    const { email, password, token, user } = await signUp(t);
    const other = (await login(email, password).expect(200)).body.access_token as string;
    const response = await t.request
      .post('/api/v1/users/change-password')
      .set(bearer(token))
      .send({ current_password: password, new_password: 'a new password' })
      .expect(200);
    expect(response.body).toEqual({ message: 'Password changed. Other sessions have been signed out.' });
    await t.request.get('/api/v1/users/profile').set(bearer(token)).expect(200);
    await t.request.get('/api/v1/users/profile').set(bearer(other)).expect(401);
    expect(await t.db.models.Session.count({ where: { subject_id: user.id } })).toBe(1);
    await login(email, password).expect(401);
    await login(email, 'a new password').expect(200);
    const audit = await t.db.models.AuditLog.findOne({
      where: { user_id: user.id, event_type: 'user.password_changed' },
    });
    expect(JSON.parse(audit?.details ?? '{}')).toEqual({
      other_sessions_revoked: 1,
      sign_out_everywhere: false,
    });
  });

  it('refuses a wrong current password with 422 and changes nothing', async () => {
    const { email, password, token, user } = await signUp(t);
    await login(email, password).expect(200);
    const before = await t.db.models.User.findByPk(user.id, { raw: true });
    const counts = await rowCounts(t);
    const response = await t.request
      .post('/api/v1/users/change-password')
      .set(bearer(token))
      .send({ current_password: 'not my password', new_password: 'a new password' })
      .expect(422);
    expect(response.body).toMatchObject({
      code: 'users.wrong_password',
      detail: 'Current password is incorrect',
      errors: [{ path: 'current_password', message: 'Current password is incorrect' }],
    });
    expect(await t.db.models.User.findByPk(user.id, { raw: true })).toEqual(before);
    expect(await rowCounts(t)).toEqual(counts);
  });

  it('voids a pending password reset link', async () => {
    const { email, password, token } = await signUp(t);
    await t.request
      .post('/api/v1/users/forgot-password')
      .set('X-Forwarded-For', randomClientIp())
      .send({ email })
      .expect(202);
    const mail = await t.smtp.waitFor(email, /Reset your Attestly password/);
    const link = decodeURIComponent(/reset-password\?token=(\S+)/.exec(mail.text)?.[1] ?? '');
    await t.request
      .post('/api/v1/users/change-password')
      .set(bearer(token))
      .send({ current_password: password, new_password: 'changed password' })
      .expect(200);
    await t.request
      .post('/api/v1/users/reset-password')
      .send({ token: link, new_password: 'attacker password' })
      .expect(400);
  });

  it.each([
    [
      {},
      [
        ['current_password', 'Current password is required'],
        ['new_password', 'New password is required'],
      ],
    ],
    [
      { current_password: 'whatever1', new_password: 'short' },
      [['new_password', 'Password must be at least 8 characters']],
    ],
    [
      { current_password: 1, new_password: true },
      [
        ['current_password', 'Must be text'],
        ['new_password', 'Must be text'],
      ],
    ],
  ])('refuses %j with 422', async (body, expected) => {
    const { token } = await signUp(t);
    const counts = await rowCounts(t);
    const response = await t.request
      .post('/api/v1/users/change-password')
      .set(bearer(token))
      .send(body)
      .expect(422);
    expect(response.body.errors).toEqual(expected.map(([path, message]) => ({ path, message })));
    expect(await rowCounts(t)).toEqual(counts);
  });

  it('requires a user session', async () => {
    await t.request
      .post('/api/v1/users/change-password')
      .send({ current_password: 'x', new_password: 'yyyyyyyy' })
      .expect(401);
  });
});

describe('DELETE /users/account', () => {
  it('refuses a wrong password with 422 and changes nothing', async () => {
    const { email, password, token, user } = await signUp(t);
    const before = await t.db.models.User.findByPk(user.id, { raw: true });
    const counts = await rowCounts(t);
    const response = await t.request
      .delete('/api/v1/users/account')
      .set(bearer(token))
      .send({ password: 'not my password' })
      .expect(422);
    expect(response.body).toMatchObject({ code: 'users.wrong_password', detail: 'Password is incorrect' });
    expect(await t.db.models.User.findByPk(user.id, { raw: true })).toEqual(before);
    expect(await rowCounts(t)).toEqual(counts);
    await t.request.get('/api/v1/users/profile').set(bearer(token)).expect(200);
    await login(email, password).expect(200);
  });

  it('refuses a missing password with 422', async () => {
    const { token } = await signUp(t);
    const response = await t.request.delete('/api/v1/users/account').set(bearer(token)).send({}).expect(422);
    expect(response.body.errors).toEqual([{ path: 'password', message: 'Password is required' }]);
    await t.request.delete('/api/v1/users/account').set(bearer(token)).expect(422);
  });

  it('erases personal data, ends every session, keeps the audit trail and frees the address', async () => {
    const { email, password, token, user } = await signUp(t, { full_name: 'Private Person' });
    const second = (await login(email, password).expect(200)).body.access_token as string;
    await t.request
      .put('/api/v1/users/profile')
      .set(bearer(token))
      .send({
        full_name: 'Private Person',
        email,
        phone: '+15551234567',
        country: 'US',
        state: 'CA',
        city: 'Oakland',
      })
      .expect(200);
    const photo = await t.request
      .post('/api/v1/users/profile/photo')
      .set(bearer(token))
      .attach('photo', PNG, 'me.png')
      .expect(200);
    await t.request.post('/api/v1/users/send-phone-verification').set(bearer(token)).send({}).expect(202);
    await t.db.models.User.update(
      {
        proven_min_age: 21,
        age_verified_at: t.clock.now(),
        age_verified_until: t.clock.now(),
        location_country: 'US',
      },
      { where: { id: user.id } },
    );
    await t.services.users.whenIdle();
    const auditBefore = await t.db.models.AuditLog.count({ where: { user_id: user.id } });

    await t.request.delete('/api/v1/users/account').set(bearer(token)).send({ password }).expect(204);

    await t.request.get('/api/v1/users/profile').set(bearer(token)).expect(401);
    await t.request.get('/api/v1/users/profile').set(bearer(second)).expect(401);
    // A confirmation goes to the address the account had, with the way back to this appliance and no personal data.
    const confirmation = await t.smtp.waitFor(email, /Your Attestly account has been deleted/);
    expect(confirmation.text).toContain(`${t.deps.config.publicUrl}/register`);
    expect(confirmation.text).toMatch(/was deleted on \d{4}-\d{2}-\d{2}/);
    expect(confirmation.text).not.toMatch(/Private Person|Oakland|15551234567/);
    const refused = await login(email, password).expect(401);
    expect(refused.body.detail).toBe('Invalid email or password');
    await t.request.get(photo.body.profile_image_url).expect(404);

    const row = await t.db.models.User.findByPk(user.id, { raw: true });
    expect(row).toMatchObject({
      email: `deleted-${user.id}@deleted.invalid`,
      full_name: 'Deleted user',
      phone: null,
      pending_phone: null,
      country: null,
      state: null,
      city: null,
      profile_photo_key: null,
      proven_min_age: null,
      age_verified_at: null,
      location_country: null,
      last_login_at: null,
      deleted_at: expect.anything(),
    });
    expect(row?.password_hash).not.toMatch(/^scrypt\$/);
    expect(JSON.stringify(row)).not.toMatch(/Private Person|Oakland|15551234567/);
    expect(await t.db.models.Session.count({ where: { subject_id: user.id } })).toBe(0);
    expect(await t.db.models.UserPhoto.count({ where: { user_id: user.id } })).toBe(0);
    expect(await t.db.models.OneTimeToken.count({ where: { subject_id: user.id } })).toBe(0);

    // user.sessions_ended (every sign-in, grant and token ended) and user.account_deleted.
    expect(await t.db.models.AuditLog.count({ where: { user_id: user.id } })).toBe(auditBefore + 2);
    expect(
      await t.db.models.AuditLog.count({ where: { user_id: user.id, event_type: 'user.account_deleted' } }),
    ).toBe(1);
    expect(await verifyAuditChain(t.db)).toMatchObject({ ok: true });

    await t.request
      .post('/api/v1/users/register')
      .set('X-Forwarded-For', randomClientIp())
      .send({ full_name: 'New Owner', email, password: 'another password' })
      .expect(201);
    const fresh = await login(email, 'another password').expect(200);
    expect(fresh.body.user.id).not.toBe(user.id);
    expect(fresh.body.user.full_name).toBe('New Owner');
  });

  it('requires a user session', async () => {
    await t.request.delete('/api/v1/users/account').send({ password: 'whatever' }).expect(401);
  });
});

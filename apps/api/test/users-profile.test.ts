import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNTRY_CODES } from '@attestly/contracts';
import { EMAIL_CHANGE_BY_USER, MAIL_BY_RECIPIENT } from '../src/modules/users/accounts/service';
import { createTestApp, randomClientIp, signUp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const uniqueEmail = (label = 'user') => `${label}-${randomBytes(5).toString('hex')}@example.com`;

describe('GET /users/profile', () => {
  it('returns every field of the spec’s user profile and nothing secret', async () => {
    const { token, email, user } = await signUp(t, { full_name: 'Grace Hopper' });
    const response = await t.request.get('/api/v1/users/profile').set(bearer(token)).expect(200);
    expect(response.body).toEqual({
      id: user.id,
      full_name: 'Grace Hopper',
      email,
      phone: null,
      country: null,
      state: null,
      city: null,
      profile_image_url: null,
      email_verified_at: null,
      phone_verified_at: null,
      age_verified: false,
      location_verified: false,
      identity_verified: false,
      age_verified_at: null,
      location_verified_at: null,
      identity_verified_at: null,
      is_active: true,
      is_verified: false,
      is_partner: false,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('requires a user session', async () => {
    const response = await t.request.get('/api/v1/users/profile').expect(401);
    expect(response.body.code).toBe('auth.missing_token');
  });
});

describe('PUT /users/profile', () => {
  it('saves the whole form: given fields are stored, blank optional ones become empty', async () => {
    const { token, email, user } = await signUp(t);
    const saved = await t.request
      .put('/api/v1/users/profile')
      .set(bearer(token))
      .send({
        full_name: ' Alan Turing ',
        email,
        phone: '+44 1234 567890',
        country: 'GB',
        state: 'England',
        city: 'Wilmslow',
      })
      .expect(200);
    expect(saved.body).toMatchObject({
      full_name: 'Alan Turing',
      phone: '+44 1234 567890',
      country: 'GB',
      state: 'England',
      city: 'Wilmslow',
    });
    const read = await t.request.get('/api/v1/users/profile').set(bearer(token)).expect(200);
    expect(read.body).toEqual(saved.body);
    expect(await t.db.models.User.findByPk(user.id, { raw: true })).toMatchObject({
      country: 'GB',
      city: 'Wilmslow',
    });

    const cleared = await t.request
      .put('/api/v1/users/profile')
      .set(bearer(token))
      .send({ full_name: 'Alan Turing', email, phone: '', country: null, state: '   ' })
      .expect(200);
    expect(cleared.body).toMatchObject({ phone: null, country: null, state: null, city: null });
    expect(
      await t.db.models.AuditLog.count({ where: { user_id: user.id, event_type: 'user.profile_updated' } }),
    ).toBe(2);
  });

  // Every ISO 3166-1 country may be declared (issue 25 item 3), not only the six the reference listed.
  it('lists every ISO 3166-1 country, and Kosovo as the location data reports it', () => {
    expect(COUNTRY_CODES).toHaveLength(250);
    expect(COUNTRY_CODES).toEqual(expect.arrayContaining(['NG', 'BR', 'JP', 'IN', 'AQ', 'XK', 'ZW']));
  });

  it.each(['US', 'NG', 'BR', 'JP', 'XK', 'AQ'])('accepts the country %s', async (code) => {
    const { token, email } = await signUp(t);
    const response = await t.request
      .put('/api/v1/users/profile')
      .set(bearer(token))
      .send({ full_name: 'A', email, country: code })
      .expect(200);
    expect(response.body.country).toBe(code);
  });

  it.each([
    [
      {},
      [
        ['full_name', 'Full name is required'],
        ['email', 'Email is required'],
      ],
    ],
    [
      { full_name: '', email: 'nope' },
      [
        ['full_name', 'Full name is required'],
        ['email', 'Invalid email'],
      ],
    ],
    [
      { full_name: 'A', email: 'a@example.com', country: 'XX' },
      [['country', 'Choose one of the listed countries']],
    ],
    [
      { full_name: 'A', email: 'a@example.com', country: 'gb' },
      [['country', 'Choose one of the listed countries']],
    ],
    [{ full_name: 'A', email: 'a@example.com', phone: 'x' }, [['phone', 'Invalid phone number']]],
    [
      { full_name: 'A', email: 'a@example.com', city: 'x'.repeat(101) },
      [['city', 'Must be at most 100 characters']],
    ],
    [
      { full_name: ['A'], email: 'a@example.com', state: 3 },
      [
        ['full_name', 'Must be text'],
        ['state', 'Must be text'],
      ],
    ],
  ])('refuses %j with 422 and leaves the profile as it was', async (body, expected) => {
    const { token, user } = await signUp(t);
    const before = await t.db.models.User.findByPk(user.id, { raw: true });
    const response = await t.request.put('/api/v1/users/profile').set(bearer(token)).send(body).expect(422);
    expect(response.body.errors).toEqual(expected.map(([path, message]) => ({ path, message })));
    expect(await t.db.models.User.findByPk(user.id, { raw: true })).toEqual(before);
  });

  it('changes the address only once the link mailed to the new address is opened', async () => {
    const { token, email, password, user } = await signUp(t);
    await t.db.models.User.update({ email_verified_at: t.clock.now() }, { where: { id: user.id } });
    const newEmail = uniqueEmail('changed');
    const response = await t.request
      .put('/api/v1/users/profile')
      .set(bearer(token))
      .send({ full_name: 'A', email: newEmail.toUpperCase() })
      .expect(200);
    // Until then the account keeps its address, verified, and says which one is waiting.
    expect(response.body).toMatchObject({ email, pending_email: newEmail, is_verified: true });
    expect((await t.db.models.User.findByPk(user.id))?.email).toBe(email);
    const mail = await t.smtp.waitFor(newEmail, /Confirm your new e-mail address/);
    const link = /^http:\/\/attestly\.test\/confirm-email\/([\w-]+)$/m.exec(mail.text)?.[1];
    expect(link).toBeDefined();
    await t.request
      .post('/api/v1/users/verify-email')
      .set('X-Forwarded-For', randomClientIp())
      .send({ token: link })
      .expect(200);
    expect(await t.db.models.User.findByPk(user.id)).toMatchObject({ email: newEmail });
    expect((await t.db.models.User.findByPk(user.id))?.email_verified_at).not.toBeNull();
    await t.smtp.waitFor(email, /Your Attestly e-mail address was changed/);
    await t.request
      .post('/api/v1/users/login')
      .set('X-Forwarded-For', randomClientIp())
      .send({ email, password })
      .expect(401);
    await t.request
      .post('/api/v1/users/login')
      .set('X-Forwarded-For', randomClientIp())
      .send({ email: newEmail, password })
      .expect(200);
    const events = await t.db.models.AuditLog.findAll({ where: { user_id: user.id } });
    expect(events.map((row) => row.event_type)).toEqual(
      expect.arrayContaining(['user.email_change_requested', 'user.email_changed']),
    );
  });

  it('keeps email verification when the address is saved unchanged', async () => {
    const { token, email, user } = await signUp(t);
    const verifiedAt = t.clock.now();
    await t.db.models.User.update({ email_verified_at: verifiedAt }, { where: { id: user.id } });
    const response = await t.request
      .put('/api/v1/users/profile')
      .set(bearer(token))
      .send({ full_name: 'Renamed', email })
      .expect(200);
    expect(response.body.email_verified_at).toBe(verifiedAt.toISOString());
  });

  it('resets phone verification when the number changes', async () => {
    const { token, email, user } = await signUp(t);
    await t.db.models.User.update(
      { phone: '+15550000001', phone_verified_at: t.clock.now() },
      { where: { id: user.id } },
    );
    const same = await t.request
      .put('/api/v1/users/profile')
      .set(bearer(token))
      .send({ full_name: 'A', email, phone: '+15550000001' })
      .expect(200);
    expect(same.body.phone_verified_at).not.toBeNull();
    const changed = await t.request
      .put('/api/v1/users/profile')
      .set(bearer(token))
      .send({ full_name: 'A', email, phone: '+15550000002' })
      .expect(200);
    expect(changed.body.phone_verified_at).toBeNull();
  });

  it('answers a taken address exactly like a free one, tells its owner instead, and changes nothing', async () => {
    const other = await signUp(t);
    const { token, user } = await signUp(t);
    const before = await t.db.models.User.findByPk(user.id, { raw: true });
    const free = uniqueEmail('free');
    const taken = await t.request
      .put('/api/v1/users/profile')
      .set(bearer(token))
      .send({ full_name: 'Thief', email: other.email.toUpperCase() })
      .expect(200);
    const unused = await t.request
      .put('/api/v1/users/profile')
      .set(bearer(token))
      .send({ full_name: 'Thief', email: free })
      .expect(200);
    // Same status and shape; each names the address it was given, as any form echo would.
    expect(Object.keys(taken.body).sort()).toEqual(Object.keys(unused.body).sort());
    expect(taken.body.pending_email).toBe(other.email);
    expect(taken.body.email).toBe(before?.email);
    const notice = await t.smtp.waitFor(other.email, /Someone tried to use your e-mail address/);
    expect(notice.text).not.toMatch(/confirm-email/);
    expect((await t.db.models.User.findByPk(user.id))?.email).toBe(before?.email);
    expect((await t.db.models.User.findByPk(other.user.id))?.email).toBe(other.email);
  });

  it('caps address changes per account and mail per recipient with 429, for taken and free addresses alike', async () => {
    const { token } = await signUp(t);
    for (let change = 1; change <= EMAIL_CHANGE_BY_USER.limit; change += 1) {
      await t.request
        .put('/api/v1/users/profile')
        .set(bearer(token))
        .send({ full_name: 'A', email: uniqueEmail(`hop${change}`) })
        .expect(200);
    }
    const limited = await t.request
      .put('/api/v1/users/profile')
      .set(bearer(token))
      .send({ full_name: 'A', email: uniqueEmail('one-more') })
      .expect(429);
    expect(limited.body.detail).toBe('Too many e-mail address changes. Please wait before trying again.');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    // One victim address, many accounts asking for it: at most MAIL_BY_RECIPIENT.limit mails reach it.
    const victim = await signUp(t);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < MAIL_BY_RECIPIENT.limit + 2; attempt += 1) {
      const asker = await signUp(t);
      const answer = await t.request
        .put('/api/v1/users/profile')
        .set(bearer(asker.token))
        .send({ full_name: 'A', email: victim.email });
      statuses.push(answer.status);
    }
    // The victim's own sign-up mail already spent one of the address's budget.
    expect(statuses.filter((status) => status === 200)).toHaveLength(MAIL_BY_RECIPIENT.limit - 1);
    expect(statuses.slice(-2)).toEqual([429, 429]);
    const notices = () =>
      t.smtp.messages.filter(
        (mail) =>
          mail.to.includes(victim.email) && /Someone tried to use your e-mail address/.test(mail.subject),
      ).length;
    await expect.poll(notices, { timeout: 10_000 }).toBe(MAIL_BY_RECIPIENT.limit - 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(notices()).toBe(MAIL_BY_RECIPIENT.limit - 1);
  });

  it('requires a user session', async () => {
    await t.request.put('/api/v1/users/profile').send({ full_name: 'A', email: 'a@example.com' }).expect(401);
  });
});

describe('is_partner on the profile', () => {
  it('is true while a partner account with the same proven address exists and is not suspended', async () => {
    const { registerPartner } = await import('./oidc-helpers');
    const email = uniqueEmail('both');
    const user = await signUp(t, { email });
    const profile = async () =>
      (await t.request.get('/api/v1/users/profile').set(bearer(user.token)).expect(200)).body as {
        is_partner: boolean;
      };
    await t.db.models.User.update({ email_verified_at: null }, { where: { id: user.user.id } });
    // The user's sign-up mail has the same subject as the partner's: prove the partner's address directly.
    await registerPartner({ request: t.request }, { email });
    await t.db.models.Partner.update({ email_verified_at: t.clock.now() }, { where: { email } });
    // The user's own address is not proven yet: typing someone's address makes nobody a partner.
    expect((await profile()).is_partner).toBe(false);
    await t.db.models.User.update({ email_verified_at: t.clock.now() }, { where: { id: user.user.id } });
    expect((await profile()).is_partner).toBe(true);
    await t.db.models.Partner.update({ status: 'suspended' }, { where: { email } });
    expect((await profile()).is_partner).toBe(false);
    // Someone else's partner account says nothing about this user.
    const other = await signUp(t);
    await t.db.models.User.update({ email_verified_at: t.clock.now() }, { where: { id: other.user.id } });
    expect(
      (await t.request.get('/api/v1/users/profile').set(bearer(other.token)).expect(200)).body.is_partner,
    ).toBe(false);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../src/modules/shared/audit/service';
import {
  ADMIN_LOCK_MS,
  ADMIN_SESSION_TTL_MS,
  ADMIN_TEMP_TOKEN_TTL_MS,
} from '../src/modules/backoffice/accounts/service';
import { totpCode } from '../src/modules/backoffice/accounts/totp';
import { createTestApp, randomClientIp, type TestApp } from './helpers';
import { ADMIN_PASSWORD, createAdmin, nextStep } from './admin-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const login = (email: string, password = ADMIN_PASSWORD) =>
  t.request
    .post('/api/v1/auth/admin/login')
    .set('X-Forwarded-For', randomClientIp())
    .send({ email, password });
const verify = (temp_token: string, code: string) =>
  t.request.post('/api/v1/auth/admin/verify-2fa').send({ temp_token, code });
const stats = (token: string) =>
  t.request.get('/api/v1/admin/system/stats').set('Authorization', `Bearer ${token}`);

async function tempToken(email: string): Promise<string> {
  const response = await login(email).expect(200);
  expect(response.body).toMatchObject({ requires_2fa: true, requires_2fa_setup: false, access_token: null });
  return response.body.temp_token as string;
}

describe('first sign-in and TOTP setup', () => {
  it('asks for setup with an ats_ token that opens only the two setup calls', async () => {
    const email = 'first@example.com';
    const admin = await t.services.admins.createAdmin({ email, password: ADMIN_PASSWORD });
    const first = await login(email).expect(200);
    expect(first.body).toMatchObject({
      requires_2fa_setup: true,
      requires_2fa: false,
      temp_token: null,
      user_id: admin.id,
    });
    const setupToken = first.body.access_token as string;
    expect(setupToken.startsWith('ats_')).toBe(true);
    // The setup token is no admin token.
    expect((await stats(setupToken)).status).toBe(401);
    // Wrong password on setup: refused, nothing revealed.
    const wrong = await t.request
      .post('/api/v1/auth/admin/setup-2fa')
      .set('Authorization', `Bearer ${setupToken}`)
      .send({ password: 'not it' });
    expect(wrong.status).toBe(422);
    const missing = await t.request
      .post('/api/v1/auth/admin/setup-2fa')
      .set('Authorization', `Bearer ${setupToken}`)
      .send({});
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toBe('Please enter your current password');

    const setup = await t.request
      .post('/api/v1/auth/admin/setup-2fa')
      .set('Authorization', `Bearer ${setupToken}`)
      .send({ password: ADMIN_PASSWORD })
      .expect(200);
    expect(setup.headers['cache-control']).toBe('no-store');
    expect(setup.body.qr_code_data_uri).toMatch(/^data:image\/png;base64,/);
    expect(setup.body.otpauth_url).toMatch(/^otpauth:\/\/totp\/Attestly:first%40example\.com\?/);
    expect(setup.body.otpauth_url).toContain('issuer=Attestly');
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.body.backup_codes).toHaveLength(10);
    expect(new Set(setup.body.backup_codes).size).toBe(10);
    // The secret is stored encrypted, never in clear; backup codes only as hashes.
    const row = await t.db.models.Admin.findByPk(admin.id);
    expect(row?.totp_secret).not.toContain(setup.body.secret);
    const codes = await t.db.models.AdminBackupCode.findAll({ where: { admin_id: admin.id } });
    expect(codes.map((code) => code.code_hash)).not.toContain(setup.body.backup_codes[0]);

    const badCode = await t.request
      .post('/api/v1/auth/admin/enable-2fa')
      .set('Authorization', `Bearer ${setupToken}`)
      .send({ totp_code: '12345' });
    expect(badCode.status).toBe(422);
    expect(badCode.body.detail).toBe('2FA code must be 6 digits');
    const enabled = await t.request
      .post('/api/v1/auth/admin/enable-2fa')
      .set('Authorization', `Bearer ${setupToken}`)
      .send({ totp_code: totpCode(setup.body.secret, t.clock.now()) })
      .expect(200);
    expect(enabled.body.access_token).toMatch(/^ata_/);
    expect(enabled.body.admin).toMatchObject({ email, totp_enabled: true });
    expect((await stats(enabled.body.access_token)).status).toBe(200);
    // The setup token is spent.
    const again = await t.request
      .post('/api/v1/auth/admin/setup-2fa')
      .set('Authorization', `Bearer ${setupToken}`)
      .send({ password: ADMIN_PASSWORD });
    expect(again.status).toBe(401);
    // From now on the password alone never yields a token.
    nextStep(t);
    const next = await login(email).expect(200);
    expect(next.body).toMatchObject({ requires_2fa: true, access_token: null, user_id: admin.id });
  });

  it('refuses setup tokens on the verify call and admin tokens on the setup calls', async () => {
    const admin = await createAdmin(t);
    const enable = await t.request
      .post('/api/v1/auth/admin/enable-2fa')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ totp_code: '123456' });
    expect(enable.status).toBe(401);
  });
});

describe('second factor with a fixed clock', () => {
  it('accepts the current code and the codes of the previous and next steps, each once', async () => {
    const admin = await createAdmin(t);
    const now = t.clock.now();
    // Previous step.
    nextStep(t);
    const previous = totpCode(admin.secret, new Date(t.clock.now().getTime() - 30_000));
    expect((await verify(await tempToken(admin.email), previous)).status).toBe(200);
    // Next step (a phone slightly ahead).
    nextStep(t);
    const ahead = totpCode(admin.secret, new Date(t.clock.now().getTime() + 30_000));
    expect((await verify(await tempToken(admin.email), ahead)).status).toBe(200);
    // The current step is now older than the last one accepted: refused as a replay.
    const current = totpCode(admin.secret, t.clock.now());
    const replay = await verify(await tempToken(admin.email), current);
    expect(replay.status).toBe(401);
    expect(replay.body.detail).toBe('Invalid verification code');
    // Two steps away is outside the window.
    nextStep(t);
    nextStep(t);
    nextStep(t);
    const far = totpCode(admin.secret, new Date(t.clock.now().getTime() - 90_000));
    expect((await verify(await tempToken(admin.email), far)).status).toBe(401);
    expect(now).toBeInstanceOf(Date);
  });

  it('refuses a replayed code, also when two requests race with it', async () => {
    const admin = await createAdmin(t);
    nextStep(t);
    const code = totpCode(admin.secret, t.clock.now());
    const [a, b] = await Promise.all([tempToken(admin.email), tempToken(admin.email)]);
    // Only one temp token is outstanding per admin: the second login replaced the first.
    const tokens = [a, b];
    const racers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => verify(tokens[i % 2] as string, code)),
    );
    const ok = racers.filter((response) => response.status === 200);
    expect(ok).toHaveLength(1);
    // Same code again later in the same step: refused.
    const later = await verify(await tempToken(admin.email), code);
    expect(later.status).toBe(401);
  });

  it('accepts each backup code once', async () => {
    const admin = await createAdmin(t);
    const code = admin.backupCodes[0] as string;
    const first = await verify(await tempToken(admin.email), code.toUpperCase());
    expect(first.status).toBe(200);
    expect(first.body.access_token).toMatch(/^ata_/);
    const second = await verify(await tempToken(admin.email), code);
    expect(second.status).toBe(401);
    // Racing the next code: one wins.
    const other = admin.backupCodes[1] as string;
    const temp = await tempToken(admin.email);
    const racers = await Promise.all([verify(temp, other), verify(temp, other), verify(temp, other)]);
    expect(racers.filter((response) => response.status === 200)).toHaveLength(1);
    const me = await t.request
      .get('/api/v1/auth/admin/me')
      .set('Authorization', `Bearer ${first.body.access_token}`);
    expect(me.body.backup_codes_left).toBe(8);
  });

  it('locks the account on the fifth wrong code, and the temp token with it', async () => {
    const admin = await createAdmin(t);
    const temp = await tempToken(admin.email);
    for (let attempt = 1; attempt <= 4; attempt++) {
      const response = await verify(temp, '000000');
      expect(response.status).toBe(401);
    }
    const fifth = await verify(temp, '000001');
    expect(fifth.status).toBe(429);
    expect(fifth.headers['retry-after']).toBe(String(ADMIN_LOCK_MS / 1000));
    // Even the right code and the right password are refused while locked.
    const locked = await login(admin.email);
    expect(locked.status).toBe(429);
    t.clock.advance(ADMIN_LOCK_MS + 1000);
    nextStep(t);
    const temp2 = await tempToken(admin.email);
    expect((await verify(temp2, totpCode(admin.secret, t.clock.now()))).status).toBe(200);
    const audit = await t.db.models.AuditLog.findAll({
      where: { admin_user_id: admin.id, event_type: 'admin_locked_out' },
    });
    expect(audit).toHaveLength(1);
  });

  it('locks the address out of the account on the fifth wrong password from it (admin-lockout.test.ts)', async () => {
    const admin = await createAdmin(t);
    const ip = randomClientIp();
    const from = (password: string) =>
      t.request
        .post('/api/v1/auth/admin/login')
        .set('X-Forwarded-For', ip)
        .send({ email: admin.email, password });
    for (let attempt = 1; attempt <= 4; attempt++) expect((await from('wrong')).status).toBe(401);
    expect((await from('wrong')).status).toBe(429);
    expect((await from(ADMIN_PASSWORD)).status).toBe(429);
  });

  it('lets a temp token expire', async () => {
    const admin = await createAdmin(t);
    const temp = await tempToken(admin.email);
    t.clock.advance(ADMIN_TEMP_TOKEN_TTL_MS + 1000);
    const response = await verify(temp, totpCode(admin.secret, t.clock.now()));
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('auth.invalid_temp_token');
    expect((await verify('att_not-a-token', '123456')).status).toBe(401);
  });

  it('answers unknown addresses like wrong passwords', async () => {
    const response = await login('nobody@example.com');
    expect(response.status).toBe(401);
    expect(response.body.detail).toBe('Invalid email or password');
    const bad = await t.request.post('/api/v1/auth/admin/login').send({ email: '', password: '' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toBe('Email is required');
    const noCode = await verify('att_x', '');
    expect(noCode.status).toBe(422);
    expect(noCode.body.detail).toBe('2FA code is required');
  });
});

describe('admin sessions', () => {
  it('end after 30 minutes idle and after 8 hours in any case', async () => {
    const admin = await createAdmin(t);
    t.clock.advance(29 * 60_000);
    expect((await stats(admin.token)).status).toBe(200);
    t.clock.advance(31 * 60_000);
    expect((await stats(admin.token)).status).toBe(401);

    nextStep(t);
    const temp = await tempToken(admin.email);
    const fresh = (await verify(temp, totpCode(admin.secret, t.clock.now())).expect(200)).body;
    expect(new Date(fresh.expires_at).getTime() - t.clock.now().getTime()).toBe(ADMIN_SESSION_TTL_MS);
    for (let hour = 0; hour < 16; hour++) {
      t.clock.advance(29 * 60_000);
      const response = await stats(fresh.access_token);
      expect(response.status).toBe(
        t.clock.now().getTime() < new Date(fresh.expires_at).getTime() ? 200 : 401,
      );
    }
  });

  it('signs out', async () => {
    const admin = await createAdmin(t);
    await t.request
      .post('/api/v1/auth/admin/logout')
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(204);
    expect((await stats(admin.token)).status).toBe(401);
    const events = await t.db.models.AuditLog.findAll({ where: { admin_user_id: admin.id } });
    expect(events.map((event) => event.event_type)).toEqual(
      expect.arrayContaining(['admin_created', 'admin_2fa_enabled', 'admin_login', 'admin_logout']),
    );
    expect((await verifyAuditChain(t.db)).ok).toBe(true);
  });

  it('disabling an admin or resetting the second factor ends its sessions', async () => {
    const admin = await createAdmin(t);
    await t.services.admins.resetTotp(admin.id);
    expect((await stats(admin.token)).status).toBe(401);
    const again = await login(admin.email).expect(200);
    expect(again.body.requires_2fa_setup).toBe(true);
    await t.services.admins.disableAdmin(admin.id);
    expect((await login(admin.email)).status).toBe(403);
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, randomClientIp, signUp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function secondSession(email: string, password: string, ip: string, userAgent: string) {
  const response = await t.request
    .post('/api/v1/users/login')
    .set('X-Forwarded-For', ip)
    .set('User-Agent', userAgent)
    .send({ email, password, rememberMe: true })
    .expect(200);
  return response.body.access_token as string;
}

describe('GET /users/sessions', () => {
  it('lists the account’s live sessions, newest first, marking the current one', async () => {
    const { email, password, token } = await signUp(t);
    t.clock.advance(1000);
    const ip = randomClientIp();
    await secondSession(email, password, ip, 'Phone Browser/2.0');
    const response = await t.request.get('/api/v1/users/sessions').set(bearer(token)).expect(200);
    expect(response.body.total_count).toBe(2);
    const [newest, oldest] = response.body.sessions;
    expect(newest).toEqual({
      id: expect.any(String),
      current: false,
      remember: true,
      ip_address: ip,
      user_agent: 'Phone Browser/2.0',
      created_at: t.clock.now().toISOString(),
      last_used_at: t.clock.now().toISOString(),
      expires_at: new Date(t.clock.now().getTime() + 30 * 86400_000).toISOString(),
    });
    expect(oldest).toMatchObject({ current: true, remember: false });
    expect(JSON.stringify(response.body)).not.toMatch(/token_hash|atu_/);
  });

  it('leaves out expired sessions and other accounts’ sessions', async () => {
    const alice = await signUp(t);
    await signUp(t);
    t.clock.advance(12 * 3600_000 - 1000);
    const fresh = await secondSession(alice.email, alice.password, randomClientIp(), 'later');
    t.clock.advance(2000);
    const response = await t.request.get('/api/v1/users/sessions').set(bearer(fresh)).expect(200);
    expect(response.body.total_count).toBe(1);
    expect(response.body.sessions[0].current).toBe(true);
  });

  it('requires a user session, not a partner one', async () => {
    await t.request.get('/api/v1/users/sessions').expect(401);
    const { user } = await signUp(t);
    const partner = await t.services.sessions.issue('partner', user.id, {
      remember: false,
      ip: null,
      userAgent: null,
    });
    await t.request.get('/api/v1/users/sessions').set(bearer(partner.token)).expect(401);
  });
});

describe('DELETE /users/sessions/:id', () => {
  it('signs out another session of the same account', async () => {
    const { email, password, token, user } = await signUp(t);
    const other = await secondSession(email, password, randomClientIp(), 'other device');
    const list = await t.request.get('/api/v1/users/sessions').set(bearer(token)).expect(200);
    const target = list.body.sessions.find((session: { current: boolean }) => !session.current);
    await t.request.delete(`/api/v1/users/sessions/${target.id}`).set(bearer(token)).expect(204);
    await t.request.get('/api/v1/users/profile').set(bearer(other)).expect(401);
    await t.request.get('/api/v1/users/profile').set(bearer(token)).expect(200);
    const audit = await t.db.models.AuditLog.findOne({
      where: { user_id: user.id, event_type: 'user.session_revoked' },
    });
    expect(JSON.parse(audit?.details ?? '{}')).toEqual({ session_id: target.id });
  });

  it('answers 404 for another account’s session and leaves it working', async () => {
    const victim = await signUp(t);
    const attacker = await signUp(t);
    const victimSession = await t.db.models.Session.findOne({ where: { subject_id: victim.user.id } });
    const response = await t.request
      .delete(`/api/v1/users/sessions/${victimSession?.id}`)
      .set(bearer(attacker.token))
      .expect(404);
    expect(response.body).toMatchObject({ code: 'sessions.not_found', detail: 'Session not found' });
    await t.request.get('/api/v1/users/profile').set(bearer(victim.token)).expect(200);
  });

  it('answers 404 for a partner session with the same subject id', async () => {
    const { token, user } = await signUp(t);
    const partner = await t.services.sessions.issue('partner', user.id, {
      remember: false,
      ip: null,
      userAgent: null,
    });
    await t.request.delete(`/api/v1/users/sessions/${partner.session.id}`).set(bearer(token)).expect(404);
    expect(await t.services.sessions.authenticate(partner.token, ['partner'])).not.toBeNull();
  });

  it('answers 404 for an unknown id and 422 for a malformed one', async () => {
    const { token } = await signUp(t);
    await t.request.delete(`/api/v1/users/sessions/${randomUUID()}`).set(bearer(token)).expect(404);
    const malformed = await t.request
      .delete('/api/v1/users/sessions/not-a-uuid')
      .set(bearer(token))
      .expect(422);
    expect(malformed.body.errors).toEqual([{ path: 'id', message: 'Unknown session' }]);
  });

  it('requires a user session', async () => {
    await t.request.delete(`/api/v1/users/sessions/${randomUUID()}`).expect(401);
  });
});

describe('session service', () => {
  it('stores one table for every account kind and tells kinds apart by prefix', async () => {
    const { user } = await signUp(t);
    for (const kind of ['partner', 'admin', 'admin_setup'] as const) {
      const issued = await t.services.sessions.issue(kind, user.id, {
        remember: false,
        ip: null,
        userAgent: null,
      });
      expect(t.services.sessions.kindOf(issued.token)).toBe(kind);
      expect(await t.services.sessions.authenticate(issued.token, [kind])).toMatchObject({
        kind,
        subject_id: user.id,
      });
      expect(await t.services.sessions.authenticate(issued.token, ['user'])).toBeNull();
    }
  });

  it('honours a custom lifetime and purges expired sessions', async () => {
    const { user } = await signUp(t);
    const short = await t.services.sessions.issue('admin_setup', user.id, {
      remember: false,
      ttlMs: 60_000,
      ip: null,
      userAgent: null,
    });
    t.clock.advance(60_001);
    expect(await t.services.sessions.authenticate(short.token, ['admin_setup'])).toBeNull();
    expect(await t.services.sessions.purgeExpired()).toBeGreaterThanOrEqual(1);
    expect(await t.db.models.Session.findByPk(short.session.id)).toBeNull();
  });

  it('refreshes last_used_at at most every five minutes', async () => {
    const { token } = await signUp(t);
    const session = await t.services.sessions.authenticate(token, ['user']);
    const first = session?.last_used_at?.toISOString();
    t.clock.advance(60_000);
    await t.request.get('/api/v1/users/profile').set(bearer(token)).expect(200);
    expect((await t.db.models.Session.findByPk(session?.id))?.last_used_at?.toISOString()).toBe(first);
    t.clock.advance(5 * 60_000);
    await t.request.get('/api/v1/users/profile').set(bearer(token)).expect(200);
    expect((await t.db.models.Session.findByPk(session?.id))?.last_used_at?.toISOString()).toBe(
      t.clock.now().toISOString(),
    );
  });
});

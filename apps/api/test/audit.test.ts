import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuditService, GENESIS_HASH, verifyAuditChain } from '../src/modules/shared/audit/service';
import { sha256 } from '../src/lib/crypto';
import { createTestApp, randomClientIp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const USER_AGENT = 'AuditTest/1.0 (like a browser)';

describe('audit trail of account events', () => {
  it('records every account event with the client’s ip and user agent', async () => {
    const ip = randomClientIp();
    const call = (method: 'get' | 'post' | 'put' | 'delete', path: string, token?: string) => {
      const request = t.request[method](`/api/v1/users${path}`)
        .set('X-Forwarded-For', ip)
        .set('User-Agent', USER_AGENT);
      return token ? request.set('Authorization', `Bearer ${token}`) : request;
    };
    const email = `audited-${randomBytes(4).toString('hex')}@example.com`;
    await call('post', '/register')
      .send({ full_name: 'Audited', email, password: 'first password' })
      .expect(201);
    const verifyMail = await t.smtp.waitFor(email, /Confirm your e-mail/);
    await call('post', '/verify-email')
      .send({ token: /\/confirm-email\/([\w-]+)/.exec(verifyMail.text)?.[1] })
      .expect(200);
    await call('post', '/login').send({ email, password: 'wrong password' }).expect(401);
    for (let attempt = 2; attempt <= 5; attempt += 1)
      await call('post', '/login').send({ email, password: 'wrong password' });
    await call('post', '/forgot-password').send({ email }).expect(202);
    const resetMail = await t.smtp.waitFor(email, /Reset your Attestly password/);
    await call('post', '/reset-password')
      .send({
        token: decodeURIComponent(/token=(\S+)/.exec(resetMail.text)?.[1] ?? ''),
        new_password: 'second password',
      })
      .expect(200);
    const login = await call('post', '/login').send({ email, password: 'second password' }).expect(200);
    let token = login.body.access_token as string;
    token = (await call('post', '/refresh-token', token).expect(200)).body.access_token;
    await call('put', '/profile', token)
      .send({ full_name: 'Audited', email, phone: '+15550001111' })
      .expect(200);
    await call('post', '/send-phone-verification', token).send({}).expect(202);
    const code = [...t.logs.lines].reverse().find((line) => line.phone === '+15550001111')?.code;
    await call('post', '/verify-phone', token).send({ code }).expect(200);
    await call('post', '/change-password', token)
      .send({ current_password: 'second password', new_password: 'third password' })
      .expect(200);
    await call('post', '/logout', token).expect(204);
    token = (await call('post', '/login').send({ email, password: 'third password' }).expect(200)).body
      .access_token;
    await call('delete', '/account', token).send({ password: 'third password' }).expect(204);

    const userId = login.body.user.id as string;
    const rows = await t.db.models.AuditLog.findAll({ where: { user_id: userId }, order: [['id', 'ASC']] });
    const events = new Set(rows.map((row) => row.event_type));
    for (const event of [
      'user.registered',
      'user.email_verification_sent',
      'user.email_verified',
      'user.login_failed',
      'user.locked_out',
      'user.password_reset_requested',
      'user.password_reset',
      'user.login_succeeded',
      'user.token_refreshed',
      'user.profile_updated',
      'user.phone_verification_sent',
      'user.phone_verified',
      'user.password_changed',
      'user.logged_out',
      'user.account_deleted',
    ]) {
      expect(events, event).toContain(event);
    }
    for (const row of rows) {
      expect(row.ip_address, row.event_type).toBe(ip);
      expect(row.user_agent, row.event_type).toBe(USER_AGENT);
    }
    const failures = rows.filter((row) => row.event_type === 'user.login_failed');
    expect(failures.map((row) => row.severity)).toEqual(Array(5).fill('warning'));
    expect(rows.find((row) => row.event_type === 'user.locked_out')?.severity).toBe('error');
    // Secrets never reach the trail.
    const details = JSON.stringify(rows.map((row) => row.details));
    expect(details).not.toMatch(/first password|second password|third password/);
    expect(details).not.toContain(String(code));
    expect(await verifyAuditChain(t.db)).toEqual({ ok: true, checked: await t.db.models.AuditLog.count() });
  });

  it('links every row to its predecessor with SHA-256', async () => {
    await t.services.audit.record({
      event: 'user.logged_out',
      userId: 'u-1',
      ip: '192.0.2.1',
      userAgent: 'x',
      details: { b: 2, a: 1 },
    });
    const rows = await t.db.models.AuditLog.findAll({ order: [['id', 'ASC']] });
    expect(rows[0]?.prev_hash).toBe(GENESIS_HASH);
    for (let index = 1; index < rows.length; index += 1)
      expect(rows[index]?.prev_hash).toBe(rows[index - 1]?.hash);
    const last = rows.at(-1);
    expect(last?.details).toBe('{"a":1,"b":2}');
    expect(last?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(last?.hash).not.toBe(sha256(`${last?.prev_hash}\n`));
  });

  it('keeps one unbroken chain under concurrent writers', async () => {
    const before = await t.db.models.AuditLog.count();
    await Promise.all(
      Array.from({ length: 25 }, (_, index) =>
        t.services.audit.record({
          event: 'user.profile_updated',
          userId: `concurrent-${index}`,
          details: { index },
        }),
      ),
    );
    expect(await t.db.models.AuditLog.count()).toBe(before + 25);
    expect(await verifyAuditChain(t.db, 7)).toEqual({ ok: true, checked: before + 25 });
  });

  it('keeps one chain when two writers append at once, whatever the text (quotes, escapes, non-ASCII)', async () => {
    // A second writer with its own queue, as another replica has: on PostgreSQL its batches run on other pool
    // connections at the same time as this one's, serialised only by the database's lock. Each batch is chained in
    // SQL there (one round trip), so the hash of awkward text must match the one JavaScript computes.
    const replicas = [
      t.services.audit,
      createAuditService({ db: t.db, clock: t.clock, logger: t.deps.logger }),
    ];
    const awkward = [
      "O'Brien \\ back\\slash",
      'line\nbreak\ttab "quoted" \u0001',
      'Zoë — 東京 🚀 \u2028',
      "E'\\n' $$ ; -- not SQL",
    ];
    const before = await t.db.models.AuditLog.count();
    await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        (replicas[index % 2] as (typeof replicas)[number]).record({
          event: 'user.profile_updated',
          userId: `replica-${index % 2}-${index}`,
          userAgent: awkward[index % awkward.length] as string,
          details: { index, text: awkward[(index + 1) % awkward.length], nested: { z: 1, a: [null, true] } },
        }),
      ),
    );
    expect(await t.db.models.AuditLog.count()).toBe(before + 40);
    const stored = await t.db.models.AuditLog.findAll({
      where: { user_id: 'replica-0-4' },
      raw: true,
    });
    expect(stored[0]?.user_agent).toBe(awkward[0]);
    expect(JSON.parse(stored[0]?.details as string).text).toBe(awkward[1]);
    expect(await verifyAuditChain(t.db, 9)).toEqual({ ok: true, checked: before + 40 });
  });
});

// Last in the file: these tests rewrite the audit table.
describe('verifyAuditChain', () => {
  async function freshChain(length: number) {
    await t.db.models.AuditLog.destroy({ where: {}, truncate: true });
    for (let index = 0; index < length; index += 1) {
      await t.services.audit.record({
        event: 'user.login_succeeded',
        userId: `user-${index}`,
        ip: '198.51.100.7',
        details: { index },
      });
    }
    return t.db.models.AuditLog.findAll({ order: [['id', 'ASC']] });
  }

  it('passes an untouched chain', async () => {
    await freshChain(5);
    expect(await verifyAuditChain(t.db)).toEqual({ ok: true, checked: 5 });
  });

  it('detects a row whose details were edited', async () => {
    const rows = await freshChain(5);
    const victim = rows[2];
    await t.db.sequelize.query('UPDATE audit_logs SET details = :details WHERE id = :id', {
      replacements: { details: '{"index":99}', id: victim?.id },
    });
    expect(await verifyAuditChain(t.db)).toEqual({
      ok: false,
      checked: 2,
      brokenAt: { id: Number(victim?.id), reason: 'hash_mismatch' },
    });
  });

  it('detects a row whose ip address was edited, even with its hash recomputed naively', async () => {
    const rows = await freshChain(4);
    const victim = rows[1];
    await t.db.sequelize.query('UPDATE audit_logs SET ip_address = :ip, hash = :hash WHERE id = :id', {
      replacements: { ip: '203.0.113.66', hash: sha256('forged'), id: victim?.id },
    });
    const result = await verifyAuditChain(t.db);
    expect(result.ok).toBe(false);
    expect(result.brokenAt?.id).toBe(Number(victim?.id));
  });

  it('detects a deleted row', async () => {
    const rows = await freshChain(5);
    await t.db.sequelize.query('DELETE FROM audit_logs WHERE id = :id', {
      replacements: { id: rows[3]?.id },
    });
    expect(await verifyAuditChain(t.db)).toEqual({
      ok: false,
      checked: 3,
      brokenAt: { id: Number(rows[4]?.id), reason: 'prev_hash_mismatch' },
    });
  });
});

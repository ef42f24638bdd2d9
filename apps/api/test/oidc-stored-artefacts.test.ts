import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { migrateDown, migrateUp } from '../src/db/migrator';
import { createBackup, readBackup } from '../src/modules/operators/backup/service';
import { createAdapterFactory } from '../src/oidc/adapter';
import { createAdmin } from './admin-helpers';
import { createTestApp, onPostgres, type TestApp } from './helpers';
import {
  authorizeInBrowser,
  createSite,
  fullFlow,
  pkce,
  registerPartner,
  relyingParty,
  verifiedUser,
  type CreatedSite,
} from './oidc-helpers';

/**
 * Bearer artefacts stored like passwords (issue 21 item 2): nothing in `oidc_payloads` — read from the database or
 * from a decrypted backup — works as a token, a code or a session, while the values the clients hold keep working,
 * the back office lists and revokes tokens by an opaque id, and rows written before the change are converted.
 */
const MIGRATION = '20261127020000-hash-oidc-artefact-ids';
const keyOf = (value: string) => createHash('sha256').update(value).digest('base64url');

let t: TestApp;
let site: CreatedSite;
let admin: Awaited<ReturnType<typeof createAdmin>>;
beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
  const partner = await registerPartner(t);
  // A public client: a refresh token alone (no client secret) refreshes its grant, the strongest case to refuse.
  site = await createSite(t, partner.token, { client_type: 'public' });
  admin = await createAdmin(t);
});
afterAll(async () => {
  await t?.close();
});

/** A real flow with offline_access: what the partner's client holds afterwards, and the browser's session cookie. */
async function issueTokens() {
  const user = await verifiedUser(t, { proven_min_age: 19 });
  const flow = await fullFlow(t, site, user, {
    scope: 'openid offline_access basic_info AGE_18',
    prompt: 'consent',
  });
  const session = flow.browser.cookies.get('_session');
  expect(session, 'provider session cookie').toBeTruthy();
  return {
    user,
    flow,
    values: {
      access: flow.tokens.access_token,
      refresh: flow.tokens.refresh_token as string,
      code: new URL(flow.callback).searchParams.get('code') as string,
      session: session as string,
    },
  };
}

interface PayloadRow {
  model: string;
  id: string;
  payload: string;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
}
const payloadRows = () =>
  t.db.read<PayloadRow>(
    'SELECT model, id, payload, grant_id, uid, user_code FROM oidc_payloads ORDER BY model, id',
    {},
  );

/**
 * Every token-shaped string stored (RFC 6750 b64token, 16 characters or more): ids, indexed columns and each such
 * string inside the payload JSON.
 */
function storedStrings(rows: Array<Record<string, unknown>>): string[] {
  const found = new Set<string>();
  const walk = (value: unknown) => {
    if (typeof value === 'string') {
      found.add(value);
      if (value.startsWith('{')) {
        try {
          walk(JSON.parse(value));
        } catch {
          // not JSON: the string itself was added
        }
      }
    } else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  rows.forEach(walk);
  return [...found].filter((value) => value.length >= 16 && /^[A-Za-z0-9._~+/=-]+$/.test(value));
}

const userinfo = (bearer: string) =>
  t.request.get('/oauth2/userinfo').set('Authorization', `Bearer ${bearer}`);
const tokenRequest = (form: Record<string, string>) =>
  t.request
    .post('/oauth2/token')
    .type('form')
    .send({ client_id: site.client_id, ...form });

/** Presents a value as an access token, a refresh token and an authorization code: all must be refused. */
async function expectRefusedEverywhere(value: string) {
  expect((await userinfo(value)).status, `userinfo with ${value}`).toBe(401);
  const refresh = await tokenRequest({ grant_type: 'refresh_token', refresh_token: value });
  expect([refresh.status, refresh.body.error], `refresh with ${value}`).toEqual([400, 'invalid_grant']);
  const code = await tokenRequest({
    grant_type: 'authorization_code',
    code: value,
    redirect_uri: site.redirect_uris[0] as string,
    code_verifier: pkce().verifier,
  });
  expect([code.status, code.body.error], `code ${value}`).toEqual([400, 'invalid_grant']);
}

describe(`bearer artefacts stored as hashes on ${onPostgres ? 'PostgreSQL' : 'SQLite'}`, () => {
  it('keeps no token, code or session value in the database, and no stored string works as one', async () => {
    const { values } = await issueTokens();
    const rows = await payloadRows();
    const text = JSON.stringify(rows);
    for (const [name, value] of Object.entries(values)) expect(text, name).not.toContain(value);
    // Each is found under the hash of its value instead.
    const keys = new Set(rows.map((row) => `${row.model}:${row.id}`));
    expect(keys).toContain(`AccessToken:${keyOf(values.access)}`);
    expect(keys).toContain(`RefreshToken:${keyOf(values.refresh)}`);
    expect(keys).toContain(`AuthorizationCode:${keyOf(values.code)}`);
    expect(keys).toContain(`Session:${keyOf(values.session)}`);

    const candidates = storedStrings(rows as unknown as Array<Record<string, unknown>>);
    expect(candidates.length).toBeGreaterThan(5);
    for (const candidate of candidates) await expectRefusedEverywhere(candidate);
    // The values the client holds still work (so the refusals above are not a broken endpoint).
    expect((await userinfo(values.access)).status).toBe(200);
    const refreshed = await tokenRequest({ grant_type: 'refresh_token', refresh_token: values.refresh });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
  });

  it('writes backups that hold no usable token', async () => {
    const { values } = await issueTokens();
    const out = path.join(t.config.dataDir, `tokens-${Date.now()}.attestly-backup`);
    const secret = { masterKey: t.config.masterKey };
    await createBackup(t.config, { out, secret });
    const lines: string[] = [];
    const oidcRows: Array<Record<string, unknown>> = [];
    await readBackup(out, secret, {
      onFile: async ({ file, lines: fileLines }) => {
        for await (const line of fileLines) {
          lines.push(line);
          if (file.table === 'oidc_payloads') oidcRows.push(JSON.parse(line) as Record<string, unknown>);
        }
      },
    });
    expect(oidcRows.some((row) => JSON.stringify(row).includes(keyOf(values.access)))).toBe(true);
    const archive = lines.join('');
    for (const [name, value] of Object.entries(values)) expect(archive, name).not.toContain(value);
    for (const candidate of storedStrings(oidcRows)) await expectRefusedEverywhere(candidate);
    expect((await userinfo(values.access)).status).toBe(200);
  });

  it('lists tokens in the back office by fingerprint and opaque id, and revokes by that id', async () => {
    const { user, values } = await issueTokens();
    const as = (request: ReturnType<typeof t.request.get>) =>
      request.set('Authorization', `Bearer ${admin.token}`).set('X-Forwarded-For', admin.ip);
    const list = await as(
      t.request.get(`/api/v1/admin/tokens?user_id=${user.user.id}&active_only=true`),
    ).expect(200);
    const text = JSON.stringify(list.body);
    for (const [name, value] of Object.entries(values)) expect(text, name).not.toContain(value);
    const tokens = list.body.tokens as Array<{ id: string; fingerprint: string; kind: string }>;
    expect(tokens.map((token) => token.kind).sort()).toEqual(['access_token', 'refresh_token']);
    const access = tokens.find((token) => token.kind === 'access_token') as (typeof tokens)[number];
    // A token someone reports can be matched: the fingerprint is the start of SHA-256 of its value.
    expect(access.fingerprint).toBe(keyOf(values.access).slice(0, 12));
    for (const token of tokens) await expectRefusedEverywhere(token.id);

    await as(t.request.post(`/api/v1/admin/tokens/${access.id}/revoke`))
      .send({ reason: 'Leaked in a log' })
      .expect(200);
    expect((await userinfo(values.access)).status).toBe(401);
    const audit = await t.db.models.AuditLog.findOne({
      where: { event_type: 'token_revoked', admin_user_id: admin.id },
      order: [['id', 'DESC']],
    });
    expect(JSON.parse(audit?.details ?? '{}')).toMatchObject({ token_id: access.id, kind: 'access_token' });
    expect(audit?.details).not.toContain(values.access);
  });

  it('answers a partner’s token validation for the value it holds, not for the stored key', async () => {
    const partner = await registerPartner(t);
    const own = await createSite(t, partner.token, { client_type: 'public' });
    const user = await verifiedUser(t, { proven_min_age: 19 });
    const { tokens } = await fullFlow(t, own, user);
    const validate = (token: string) =>
      t.request
        .post('/api/v1/partners/validate-token')
        .set('Authorization', `Bearer ${partner.token}`)
        .send({ token })
        .expect(200);
    expect((await validate(tokens.access_token)).body).toMatchObject({
      active: true,
      client_id: own.client_id,
    });
    expect((await validate(keyOf(tokens.access_token))).body).toEqual({ active: false });
  });

  it('stores device codes, sessions and pushed-request references without their values (adapter)', async () => {
    const adapter = createAdapterFactory(t.deps);
    const devices = adapter('DeviceCode');
    const now = Math.floor(Date.now() / 1000);
    const device = { iat: now, exp: now + 600, jti: 'device-code-value-0123456789', userCode: 'BCDF-GHJK' };
    await devices.upsert(device.jti, { ...device, kind: 'DeviceCode', clientId: site.client_id }, 600);
    expect(await devices.findByUserCode('BCDF-GHJK')).toMatchObject({
      jti: device.jti,
      userCode: 'BCDF-GHJK',
    });
    expect(await devices.find(device.jti)).toMatchObject({ jti: device.jti });
    expect(await devices.find(keyOf(device.jti))).toBeUndefined();
    expect(await devices.findByUserCode(keyOf('BCDF-GHJK'))).toBeUndefined();

    const sessions = adapter('Session');
    const cookie = 'session-cookie-value-0123456789';
    await sessions.upsert(
      cookie,
      { iat: now, exp: now + 600, jti: cookie, uid: 'session-uid-1', kind: 'Session' },
      600,
    );
    expect(await sessions.find(cookie)).toMatchObject({ jti: cookie, uid: 'session-uid-1' });
    expect(await sessions.find(keyOf(cookie))).toBeUndefined();
    // Found by uid (account and grant checks only), it comes back without the cookie's value.
    expect((await sessions.findByUid('session-uid-1'))?.jti).toBeUndefined();

    const interactions = adapter('Interaction');
    const interaction = {
      iat: now,
      exp: now + 600,
      jti: 'interaction-uid-1',
      kind: 'Interaction',
      session: { accountId: 'someone', uid: 'session-uid-1', cookie },
      parJti: 'pushed-request-value-0123',
    };
    await interactions.upsert(interaction.jti, interaction, 600);
    expect(await interactions.find(interaction.jti)).toMatchObject({
      parJti: 'pushed-request-value-0123',
      session: { accountId: 'someone', uid: 'session-uid-1' },
    });
    expect((await interactions.find(interaction.jti))?.session).not.toHaveProperty('cookie');

    const stored = JSON.stringify(await payloadRows());
    for (const value of [device.jti, 'BCDF-GHJK', cookie, 'pushed-request-value-0123'])
      expect(stored).not.toContain(value);
    await sessions.destroy(cookie);
    expect(await sessions.find(cookie)).toBeUndefined();
    await devices.consume(device.jti);
    expect((await devices.find(device.jti))?.consumed).toEqual(expect.any(Number));
  });

  it('converts rows written before the change, and the values clients hold keep working', async () => {
    const { user, flow, values } = await issueTokens();
    const rows = await payloadRows();
    const byKey = new Map(rows.map((row) => [`${row.model}:${row.id}`, row]));
    const legacy = [
      ['AccessToken', values.access],
      ['RefreshToken', values.refresh],
      ['AuthorizationCode', values.code],
      ['Session', values.session],
    ] as const;
    const full = await t.db.read<Record<string, unknown>>(
      "SELECT * FROM oidc_payloads WHERE model IN ('AccessToken', 'RefreshToken', 'AuthorizationCode', 'Session')",
      {},
    );

    await migrateDown(t.db, { to: MIGRATION });
    // As the earlier adapter wrote them: keyed by the value, which the payload repeats as jti.
    const insert = (row: Record<string, unknown>) =>
      t.db.write(
        `INSERT INTO oidc_payloads (model, id, payload, grant_id, user_code, uid, account_id, expires_at, consumed_at)
         VALUES (:model, :id, :payload, :grant_id, :user_code, :uid, :account_id, :expires_at, :consumed_at)`,
        {
          grant_id: null,
          user_code: null,
          uid: null,
          account_id: null,
          consumed_at: null,
          expires_at: new Date(Date.now() + 600_000),
          ...row,
        },
      );
    for (const [model, value] of legacy) {
      const current = full.find((row) => row.model === model && row.id === keyOf(value));
      expect(current, model).toBeDefined();
      await insert({
        ...current,
        id: value,
        payload: JSON.stringify({ ...JSON.parse(String(current?.payload)), jti: value }),
      });
    }
    await insert({
      model: 'Interaction',
      id: 'legacy-interaction-uid',
      payload: JSON.stringify({
        jti: 'legacy-interaction-uid',
        kind: 'Interaction',
        session: { accountId: user.user.id, uid: 'u1', cookie: values.session },
        parJti: 'legacy-pushed-request-value',
        params: { client_id: site.client_id },
      }),
    });
    await insert({
      model: 'DeviceCode',
      id: 'legacy-device-code-value',
      payload: JSON.stringify({ jti: 'legacy-device-code-value', userCode: 'WXYZ-BCDF', kind: 'DeviceCode' }),
      user_code: 'WXYZ-BCDF',
    });

    // More rows than one batch of the migration, so that its walk goes on past rows it has just re-keyed.
    const many = Array.from(
      { length: 1_200 },
      (_, index) => `legacy-access-token-${index}-${'x'.repeat(20)}`,
    );
    const expires = t.db.sequelize.escape(new Date(Date.now() + 600_000) as unknown as string);
    await t.db.sequelize.query(
      `INSERT INTO oidc_payloads (model, id, payload, expires_at) VALUES ${many
        .map(
          (id) =>
            `('AccessToken', ${t.db.sequelize.escape(id)}, ${t.db.sequelize.escape(JSON.stringify({ jti: id, kind: 'AccessToken' }))}, ${expires})`,
        )
        .join(', ')}`,
    );

    expect(await migrateUp(t.db)).toContain(MIGRATION);
    const keys = new Set((await payloadRows()).map((row) => row.id));
    expect(many.every((id) => keys.has(keyOf(id)) && !keys.has(id))).toBe(true);
    const after = await payloadRows();
    const text = JSON.stringify(after);
    for (const value of [
      ...Object.values(values),
      'legacy-pushed-request-value',
      'legacy-device-code-value',
      'WXYZ-BCDF',
    ])
      expect(text).not.toContain(value);
    for (const [model, value] of legacy) {
      const converted = after.find((row) => row.model === model && row.id === keyOf(value));
      expect(converted, model).toBeDefined();
      expect(JSON.parse(converted?.payload as string)).toEqual(
        JSON.parse(byKey.get(`${model}:${keyOf(value)}`)?.payload as string),
      );
    }
    const interaction = after.find((row) => row.id === 'legacy-interaction-uid');
    expect(JSON.parse(interaction?.payload as string)).toEqual({
      jti: 'legacy-interaction-uid',
      kind: 'Interaction',
      session: { accountId: user.user.id, uid: 'u1' },
      params: { client_id: site.client_id },
    });
    expect(after.find((row) => row.model === 'DeviceCode')).toMatchObject({
      id: keyOf('legacy-device-code-value'),
      user_code: keyOf('WXYZ-BCDF'),
    });

    // The upgrade ends nothing: the access token, the refresh token and the browser's sign-in still work.
    expect((await userinfo(values.access)).status).toBe(200);
    const config = await relyingParty(t, site);
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: site.redirect_uris[0] as string,
      scope: 'openid basic_info AGE_18',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      prompt: 'none',
    });
    const silent = await authorizeInBrowser(t, flow.browser, url.href);
    expect(new URL(silent.callback).searchParams.get('code'), silent.callback).toBeTruthy();
    const refreshed = await tokenRequest({ grant_type: 'refresh_token', refresh_token: values.refresh });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { createTestApp, type TestApp } from './helpers';
import { loadSigningKeys, rotateSigningKeys } from '../src/oidc/keys';
import { createSite, fullFlow, registerPartner, verifiedUser } from './oidc-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
});
afterAll(async () => {
  await t?.close();
});

const kidOf = (jwt: string) =>
  (JSON.parse(Buffer.from(jwt.split('.')[0] as string, 'base64url').toString()) as { kid: string }).kid;

const jwksKids = async () =>
  ((await (await fetch(`${t.baseUrl}/oauth2/jwks`)).json()) as { keys: Array<{ kid: string; alg: string }> })
    .keys;

describe('signing keys', () => {
  it('are generated on first start and stored encrypted', async () => {
    const rows = await t.db.models.OidcSigningKey.findAll();
    expect(rows.map((row) => row.alg).sort()).toEqual(['ES256', 'RS256']);
    for (const row of rows) {
      expect(row.encrypted_jwk).not.toContain('"d"');
      expect(row.encrypted_jwk.split('.')).toHaveLength(3);
    }
    await expect(
      loadSigningKeys({ ...t.deps, config: { ...t.config, masterKey: Buffer.alloc(32, 7) } }),
    ).rejects.toThrow(/cannot be decrypted/);
  });

  it('rotate: the new key signs, the old one stays published until its tokens expire', async () => {
    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token);
    const user = await verifiedUser(t, { proven_min_age: 18 });
    const before = await fullFlow(t, site, user);
    const oldKid = kidOf(before.tokens.id_token as string);

    const { added, retired } = await rotateSigningKeys(t.deps);
    expect(retired).toContain(oldKid);
    expect(await t.oidc?.reloadKeys()).toBe(true);
    const published = await jwksKids();
    expect(published.map((key) => key.kid)).toEqual(expect.arrayContaining([...added, ...retired]));

    const after = await fullFlow(t, site, user, { browser: before.browser });
    const newKid = kidOf(after.tokens.id_token as string);
    expect(added).toContain(newKid);
    // openid-client verified the new ID token against the published JWKS; tokens issued before rotation still work.
    await client.fetchUserInfo(before.config, before.tokens.access_token, client.skipSubjectCheck);

    t.clock.advance(2 * 3600_000);
    await rotateSigningKeys(t.deps);
    await t.oidc?.reloadKeys();
    const later = (await jwksKids()).map((key) => key.kid);
    expect(later).not.toContain(oldKid);
    expect(later).toEqual(expect.arrayContaining(added));
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { createTestApp, type TestApp } from './helpers';
import { loadConfig } from '../src/config';
import { maintenanceJobs } from '../src/jobs';
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

describe('scheduled rotation (the rotate-signing-keys job)', () => {
  const rotationJob = () => {
    const found = maintenanceJobs(t.services).find((job) => job.name === 'rotate-signing-keys');
    if (!found) throw new Error('no rotate-signing-keys job');
    return found;
  };
  const currentKids = async () =>
    (await t.db.models.OidcSigningKey.findAll({ where: { retired_at: null } })).map((row) => row.kid).sort();
  const rotationAudits = () => t.db.models.AuditLog.count({ where: { event_type: 'signing_keys_rotated' } });

  it('leaves fresh keys alone and rotates once, however many replicas run it together, when they are due', async () => {
    expect(t.config.signingKeyRotationMs).toBe(90 * 86400_000);
    await rotateSigningKeys(t.deps);
    const fresh = await currentKids();
    const auditsBefore = await rotationAudits();
    expect(await rotationJob().run()).toBeNull();
    expect(await currentKids()).toEqual(fresh);

    t.clock.advance(90 * 86400_000 + 1000);
    // Six replicas' jobs fire together: the age is re-checked inside the keys lock, so only one rotates.
    const results = await Promise.all(Array.from({ length: 6 }, () => rotationJob().run()));
    const rotations = results.filter((result) => result !== null);
    expect(rotations).toHaveLength(1);
    const current = await currentKids();
    expect(current).toHaveLength(2);
    expect(current).toEqual([...(rotations[0] as { added: string[] }).added].sort());
    expect(current.some((kid) => fresh.includes(kid))).toBe(false);
    expect(await rotationAudits()).toBe(auditsBefore + 1);
    // The retired keys are still published for the tokens they signed; the provider signs with the new ones.
    expect(await t.oidc?.reloadKeys()).toBe(true);
    const published = (await jwksKids()).map((key) => key.kid);
    expect(published).toEqual(expect.arrayContaining([...current, ...fresh]));
    expect(await rotationJob().run()).toBeNull();
  });

  it('is not scheduled when the operator sets the rotation age to 0', async () => {
    const off = loadConfig({ ...baseEnv(), ATTESTLY_SIGNING_KEY_ROTATION_DAYS: '0' });
    expect(off.signingKeyRotationMs).toBeNull();
    const names = maintenanceJobs({ ...t.services, config: off }).map((job) => job.name);
    expect(names).not.toContain('rotate-signing-keys');
    expect(names).toContain('purge-oidc-payloads');
    expect(() => loadConfig({ ...baseEnv(), ATTESTLY_SIGNING_KEY_ROTATION_DAYS: 'monthly' })).toThrow(
      /ATTESTLY_SIGNING_KEY_ROTATION_DAYS must be a whole number of days/,
    );
  });
});

const baseEnv = () => ({ ATTESTLY_DATA_DIR: t.config.dataDir, ATTESTLY_MASTER_KEY: 'ab'.repeat(32) });

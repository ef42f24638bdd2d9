import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../apps/api/test/helpers';
import {
  createSite,
  eventually,
  fullFlow,
  registerPartner,
  verifiedUser,
} from '../../apps/api/test/oidc-helpers';
import { runCli } from './run-cli';

/** Verifies a compact JWS against the server's published JWKS (RS256 or ES256). */
async function verifiesAgainstJwks(baseUrl: string, jwt: string): Promise<{ kid: string; ok: boolean }> {
  const [head = '', body = '', signature = ''] = jwt.split('.');
  const header = JSON.parse(Buffer.from(head, 'base64url').toString()) as { kid: string; alg: string };
  const jwks = (await (await fetch(`${baseUrl}/oauth2/jwks`)).json()) as {
    keys: Array<JsonWebKey & { kid: string }>;
  };
  const jwk = jwks.keys.find((key) => key.kid === header.kid);
  if (!jwk) return { kid: header.kid, ok: false };
  const key = createPublicKey({ key: jwk, format: 'jwk' });
  const ok = verify(
    'sha256',
    Buffer.from(`${head}.${body}`),
    header.alg === 'ES256' ? { key, dsaEncoding: 'ieee-p1363' } : key,
    Buffer.from(signature, 'base64url'),
  );
  return { kid: header.kid, ok };
}

describe('attestly partner, site and keys', () => {
  let t: TestApp;
  let env: Record<string, string>;
  let partner: Awaited<ReturnType<typeof registerPartner>>;
  let site: Awaited<ReturnType<typeof createSite>>;

  beforeAll(async () => {
    // The running server: it checks the database for rotated keys every 200 ms here (every minute by default).
    t = await createTestApp({ withOidc: { keyCheckIntervalMs: 200 } });
    env = { ATTESTLY_DATA_DIR: t.config.dataDir, DATABASE_URL: t.config.databaseUrl ?? '' };
    partner = await registerPartner(t, { company_name: 'Acme Games' });
    site = await createSite(t, partner.token, { client_type: 'confidential' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('rotates signing keys while the server runs: new tokens use the new key, old tokens still verify', async () => {
    const user = await verifiedUser(t, { proven_min_age: 18 });
    const before = await fullFlow(t, site, { email: user.email, password: user.password });
    const oldToken = before.tokens.id_token as string;
    const old = await verifiesAgainstJwks(t.baseUrl, oldToken);
    expect(old.ok).toBe(true);

    const rotated = await runCli(['keys', 'rotate', '--json'], { env });
    expect(rotated.code, rotated.stderr).toBe(0);
    const { added, retired } = JSON.parse(rotated.stdout) as { added: string[]; retired: string[] };
    expect(retired).toContain(old.kid);

    // No restart: the server notices the new keys by itself.
    await eventually(async () => {
      const jwks = (await (await fetch(`${t.baseUrl}/oauth2/jwks`)).json()) as {
        keys: Array<{ kid: string }>;
      };
      return added.every((kid) => jwks.keys.some((key) => key.kid === kid));
    }, 10_000);
    const after = await fullFlow(t, site, { email: user.email, password: user.password });
    const fresh = await verifiesAgainstJwks(t.baseUrl, after.tokens.id_token as string);
    expect(added).toContain(fresh.kid);
    expect(fresh.ok).toBe(true);
    expect((await verifiesAgainstJwks(t.baseUrl, oldToken)).ok).toBe(true);

    const listed = JSON.parse((await runCli(['keys', 'list', '--json'], { env })).stdout) as {
      keys: Array<{ kid: string; state: string }>;
    };
    expect(
      listed.keys
        .filter((key) => key.state === 'current')
        .map((key) => key.kid)
        .sort(),
    ).toEqual([...added].sort());
    expect(listed.keys.find((key) => key.kid === old.kid)?.state).toBe('retired');
  });

  it('lists, shows, suspends, activates, re-plans a partner and rotates its API key', async () => {
    const listed = await runCli(['partner', 'list', '--json'], { env });
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).partners.map((p: { id: string }) => p.id)).toContain(partner.partner.id);

    const shown = await runCli(['partner', 'show', partner.email, '--json'], { env });
    expect(JSON.parse(shown.stdout)).toMatchObject({ id: partner.partner.id, partner_name: 'Acme Games' });

    const suspended = await runCli(
      ['partner', 'suspend', partner.email, '--reason', 'chargebacks', '--json'],
      { env },
    );
    expect(JSON.parse(suspended.stdout)).toMatchObject({ status: 'suspended' });
    // A suspended partner's sign-in ended.
    const me = await t.request
      .get('/api/v1/partners/profile')
      .set('Authorization', `Bearer ${partner.token}`);
    expect(me.status).toBe(401);
    const again = await runCli(['partner', 'suspend', partner.email], { env });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/This partner is suspended/);

    expect(
      JSON.parse((await runCli(['partner', 'activate', partner.partner.id, '--json'], { env })).stdout),
    ).toMatchObject({
      status: 'active',
    });
    expect(
      JSON.parse((await runCli(['partner', 'plan', partner.email, 'growth', '--json'], { env })).stdout),
    ).toMatchObject({
      plan: 'growth',
    });
    const badPlan = await runCli(['partner', 'plan', partner.email, 'gold'], { env });
    expect(badPlan.code).toBe(1);

    const key = JSON.parse(
      (await runCli(['partner', 'rotate-key', partner.email, '--json'], { env })).stdout,
    ) as {
      api_key: string;
    };
    expect(await t.services.apiKeys.authenticate(key.api_key)).toMatchObject({
      partnerId: partner.partner.id,
    });
    const rotatedAgain = JSON.parse(
      (await runCli(['partner', 'rotate-key', partner.email, '--json'], { env })).stdout,
    ) as {
      api_key: string;
    };
    expect(await t.services.apiKeys.authenticate(key.api_key)).toBeNull();
    expect(await t.services.apiKeys.authenticate(rotatedAgain.api_key)).toMatchObject({
      partnerId: partner.partner.id,
    });

    const created = await runCli(
      [
        'partner',
        'create',
        '--name',
        'Beta Bets',
        '--email',
        'ops@beta.example',
        '--contact',
        'Bea',
        '--website',
        'https://beta.example',
        '--json',
      ],
      { env },
    );
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({
      status: 'active',
      temporary_password: expect.any(String),
    });
    const missing = await runCli(['partner', 'show', 'nobody@example.com'], { env });
    expect(missing.code).toBe(1);
  }, 600_000);

  it('lists, shows and deactivates a site', async () => {
    const sites = JSON.parse(
      (await runCli(['site', 'list', '--partner', partner.email, '--json'], { env })).stdout,
    ) as {
      sites: Array<{ client_id: string }>;
    };
    expect(sites.sites.map((each) => each.client_id)).toEqual([site.client_id]);
    const shown = JSON.parse((await runCli(['site', 'show', site.client_id, '--json'], { env })).stdout);
    expect(shown).toMatchObject({ client_id: site.client_id, is_active: true });
    const off = await runCli(['site', 'deactivate', site.client_id, '--json'], { env });
    expect(off.code, off.stderr).toBe(0);
    expect(JSON.parse(off.stdout)).toMatchObject({ is_active: false });
    const unknown = await runCli(['site', 'show', 'atc_nope'], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no site atc_nope/);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../../apps/api/test/helpers';
import { createOffer, proveAge, receiveCredentials } from '../../apps/api/test/wallet-helpers';
import {
  createRootCertificate,
  createSignerCertificate,
  parseCertificate,
  parsePemBundle,
} from '../../apps/api/src/modules/users/wallet/certificates';
import { runCli } from './run-cli';

const pkcs8Pem = (der: Buffer) =>
  `-----BEGIN PRIVATE KEY-----\n${der
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END PRIVATE KEY-----\n`;

describe('attestly wallet', () => {
  let t: TestApp;
  let env: Record<string, string>;
  let dir: string;

  beforeAll(async () => {
    t = await createTestApp({ withOidc: true });
    env = {
      ATTESTLY_DATA_DIR: t.config.dataDir,
      DATABASE_URL: t.config.databaseUrl ?? '',
      ATTESTLY_PUBLIC_URL: t.config.publicUrl,
    };
    dir = mkdtempSync(path.join(tmpdir(), 'attestly-wallet-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  it('rotates the document signer, lists the key set and prints the root partners pin', async () => {
    const rotated = await runCli(['wallet', 'rotate', '--json'], { env });
    expect(rotated.code, rotated.stderr).toBe(0);
    const { signer } = JSON.parse(rotated.stdout) as { signer: string };
    const listed = JSON.parse((await runCli(['wallet', 'list', '--json'], { env })).stdout) as {
      certificates: Array<{ id: string; kind: string; state: string }>;
    };
    expect(listed.certificates.find((row) => row.id === signer)).toMatchObject({
      kind: 'signer',
      state: 'current',
    });
    expect(listed.certificates.filter((row) => row.kind === 'root' && row.state === 'current')).toHaveLength(
      1,
    );
    const printed = JSON.parse((await runCli(['wallet', 'root', '--json'], { env })).stdout) as {
      pem: string;
    };
    const served = (await t.request.get('/.well-known/attestly/credential-root.pem').expect(200)).text;
    expect(printed.pem).toBe(served);

    // The running server signs with the new signer from then on.
    const user = await signUp(t);
    await proveAge(t, user.user.id, { minAge: 19 });
    const offer = await createOffer(t, user.token, { same_device: true });
    const { received } = await receiveCredentials(offer.body.offer_url, {
      count: 1,
      configurations: ['age_sd_jwt'],
    });
    const header = JSON.parse(
      Buffer.from(received.age_sd_jwt!.credentials[0]!.split('.')[0] as string, 'base64url').toString(),
    ) as { x5c: string[] };
    const rows = await t.db.read<{ certificate_pem: string }>(
      'SELECT certificate_pem FROM wallet_certificates WHERE id = :id',
      {
        id: signer,
      },
    );
    expect(parseCertificate(Buffer.from(header.x5c[0] as string, 'base64')).serialNumber).toBe(
      parsePemBundle(rows[0]!.certificate_pem)[0]!.serialNumber,
    );
  });

  it("imports a signer from the operator's CA, whose root becomes a trust anchor; refuses a key that does not match", async () => {
    const now = new Date();
    const ca = await createRootCertificate({ name: 'Operator CA', country: 'FR', now, years: 3 });
    const ds = await createSignerCertificate({
      root: ca,
      issuer: `${t.config.publicUrl}/oauth2`,
      country: 'FR',
      now,
      signingDays: 200,
      credentialDays: 90,
    });
    const other = await createSignerCertificate({
      root: ca,
      issuer: 'https://x.example',
      country: 'FR',
      now,
      signingDays: 200,
      credentialDays: 90,
    });
    writeFileSync(path.join(dir, 'chain.pem'), `${ds.pem}\n${ca.pem}`);
    writeFileSync(path.join(dir, 'key.pem'), pkcs8Pem(ds.privateKey));
    writeFileSync(path.join(dir, 'other-key.pem'), pkcs8Pem(other.privateKey));

    const wrong = await runCli(
      [
        'wallet',
        'import-signer',
        '--certificate',
        path.join(dir, 'chain.pem'),
        '--key',
        path.join(dir, 'other-key.pem'),
      ],
      { env },
    );
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('does not belong to the certificate');

    const imported = await runCli(
      [
        'wallet',
        'import-signer',
        '--certificate',
        path.join(dir, 'chain.pem'),
        '--key',
        path.join(dir, 'key.pem'),
        '--json',
      ],
      { env },
    );
    expect(imported.code, imported.stderr).toBe(0);
    const listed = JSON.parse((await runCli(['wallet', 'list', '--json'], { env })).stdout) as {
      certificates: Array<{ kind: string; state: string; label: string | null }>;
    };
    expect(
      listed.certificates.find((row) => row.kind === 'signer' && row.state === 'current')?.label,
    ).toContain('Attestly Document Signer');
    expect(
      listed.certificates.some((row) => row.kind === 'anchor' && row.label?.includes('Operator CA')),
    ).toBe(true);
  });

  it('adds and removes trust anchors, refusing certificates that are not CAs', async () => {
    const ca = await createRootCertificate({
      name: 'EU AV Provider',
      country: 'DE',
      now: new Date(),
      years: 2,
    });
    writeFileSync(path.join(dir, 'anchors.pem'), ca.pem);
    const added = await runCli(['wallet', 'trust', 'add', path.join(dir, 'anchors.pem'), '--json'], { env });
    expect(added.code, added.stderr).toBe(0);
    const [id] = (JSON.parse(added.stdout) as { added: string[] }).added;
    expect(id).toBeTruthy();
    const leaf = await createSignerCertificate({
      root: ca,
      issuer: 'https://x.example',
      country: 'DE',
      now: new Date(),
      signingDays: 30,
      credentialDays: 30,
    });
    writeFileSync(path.join(dir, 'leaf.pem'), leaf.pem);
    expect((await runCli(['wallet', 'trust', 'add', path.join(dir, 'leaf.pem')], { env })).code).toBe(1);
    expect((await runCli(['wallet', 'trust', 'remove', id as string], { env })).code).toBe(0);
    expect((await runCli(['wallet', 'trust', 'remove', id as string], { env })).code).toBe(1);
  });

  it('registers a wallet client the running server accepts at once, lists it, and removes it for every replica', async () => {
    const authorize = () =>
      fetch(
        `${t.baseUrl}/oauth2/authorize?${new URLSearchParams({
          response_type: 'code',
          client_id: 'cli.example.wallet',
          redirect_uri: 'eudi-openid4ci://authorize',
          scope: 'proof_of_age',
          code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
          code_challenge_method: 'S256',
        })}`,
        { redirect: 'manual' },
      );
    const bad = await runCli(
      ['wallet', 'clients', 'add', 'cli.example.wallet', '--redirect-uri', 'http://wallet.example/cb'],
      { env },
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('loopback');

    const added = await runCli(
      [
        'wallet',
        'clients',
        'add',
        'cli.example.wallet',
        '--redirect-uri',
        'eudi-openid4ci://authorize',
        'https://wallet.example/cb',
        '--name',
        'CLI Wallet',
        '--json',
      ],
      { env },
    );
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({
      client_id: 'cli.example.wallet',
      redirect_uris: ['eudi-openid4ci://authorize', 'https://wallet.example/cb'],
    });
    // The server (another process) signs the user in for this wallet: on to the login screen.
    const started = await authorize();
    expect(started.status, await started.clone().text()).toBe(303);
    expect(new URL(started.headers.get('location') ?? '', t.baseUrl).pathname).toBe('/oauth/login');

    const listed = JSON.parse((await runCli(['wallet', 'clients', 'list', '--json'], { env })).stdout) as {
      clients: Array<{ client_id: string; name: string }>;
    };
    expect(listed.clients).toContainEqual(
      expect.objectContaining({ client_id: 'cli.example.wallet', name: 'CLI Wallet' }),
    );
    const audited = await t.db.read<{ event_type: string }>(
      "SELECT event_type FROM audit_logs WHERE event_type IN ('wallet.client_added', 'wallet.client_removed')",
      {},
    );
    expect(audited.map((row) => row.event_type)).toEqual(['wallet.client_added']);

    expect((await runCli(['wallet', 'clients', 'remove', 'cli.example.wallet'], { env })).code).toBe(0);
    expect((await runCli(['wallet', 'clients', 'remove', 'cli.example.wallet'], { env })).code).toBe(1);
    // Replicas cache a client for two seconds at most (oidc/clients.ts).
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const refused = await authorize();
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toBe('invalid_client');
  });
});

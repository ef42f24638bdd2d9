import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock';
import { createWalletKeyStore, SIGNING_DAYS } from '../src/modules/users/wallet/key-store';
import { parsePemBundle } from '../src/modules/users/wallet/certificates';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const DAY = 86_400_000;
const storeOn = (clock: ManualClock, masterKey = t.config.masterKey) =>
  createWalletKeyStore(
    { db: t.db, masterKey, clock },
    { issuer: 'https://verify.example/oauth2', credentialDays: 90, country: 'EU' },
  );

describe('the credential issuer key set', () => {
  it('is created once when replicas ask for a signer together, then replaced after its signing period', async () => {
    await t.db.write('DELETE FROM wallet_certificates', {});
    const clock = new ManualClock(new Date());
    const replicas = [storeOn(clock), storeOn(clock), storeOn(clock)];
    const signers = await Promise.all(
      replicas.flatMap((store) => [store.documentSigner(), store.documentSigner()]),
    );
    expect(new Set(signers.map((signer) => signer.id)).size).toBe(1);
    const rows = await replicas[0]!.list();
    expect(rows.filter((row) => row.kind === 'root')).toHaveLength(1);
    expect(rows.filter((row) => row.kind === 'signer')).toHaveLength(1);

    clock.advance((SIGNING_DAYS + 1) * DAY);
    const next = await replicas[1]!.documentSigner();
    expect(next.id).not.toBe(signers[0]!.id);
    const after = await replicas[2]!.list();
    expect(after.filter((row) => row.kind === 'signer' && !row.retiredAt).map((row) => row.id)).toEqual([
      next.id,
    ]);
    expect(after.filter((row) => row.kind === 'root')).toHaveLength(1);
    // The new signer is under the same root, which is what partners pinned.
    const [root] = parsePemBundle(await replicas[0]!.rootBundle());
    const [leaf] = parsePemBundle(after.find((row) => row.id === next.id)!.pem);
    expect(leaf!.issuer).toBe(root!.subject);
  });

  it('keeps private keys sealed: no key material in the row, and another master key cannot open them', async () => {
    const clock = new ManualClock(new Date());
    const signer = await storeOn(clock).documentSigner();
    const [row] = await t.db.read<{ sealed_private_key: string }>(
      'SELECT sealed_private_key FROM wallet_certificates WHERE id = :id',
      { id: signer.id },
    );
    const der = signer.privateKey.export({ format: 'der', type: 'pkcs8' });
    expect(row!.sealed_private_key).not.toContain(der.toString('base64'));
    expect(row!.sealed_private_key).not.toContain(der.toString('base64url'));
    await expect(storeOn(clock, randomBytes(32)).documentSigner()).rejects.toThrow(/cannot be decrypted/);
  });
});

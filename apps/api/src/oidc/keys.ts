import { createPrivateKey, generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import { Op, Transaction } from 'sequelize';
import type { Deps } from '../core/deps';
import { deriveKey, randomToken } from '../lib/crypto';
import { openText, sealText } from '../lib/media-crypto';

/**
 * Token signing keys (DESIGN.md §2, §4): generated on first start, kept in the database so every replica signs
 * with the same keys, encrypted at rest with AES-256-GCM under a key derived from the master key, and rotated
 * by `rotateSigningKeys` — the new keys sign at once; the old ones stay published in the JWKS until every token
 * they signed has expired.
 */
export const SIGNING_ALGS = ['RS256', 'ES256'] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];

/** The longest-lived thing signed with these keys is an ID token (provider.ts ttl.IdToken), plus clock skew. */
export const ID_TOKEN_TTL_SECONDS = 3600;
const PUBLISH_MARGIN_MS = 5 * 60_000;
const PG_KEYS_LOCK = 7212540010;

type KeyDeps = Pick<Deps, 'db' | 'config' | 'clock'>;

export interface SigningJwk extends JsonWebKey {
  kid: string;
  alg: SigningAlg;
  use: 'sig';
}

function encryptionKey(deps: KeyDeps): Buffer {
  return deriveKey(deps.config.masterKey, 'oidc-signing-keys');
}

// The kid as associated data ties each ciphertext to its row: swapping rows around fails to decrypt.
function seal(deps: KeyDeps, kid: string, jwk: SigningJwk): string {
  return sealText(encryptionKey(deps), Buffer.from(JSON.stringify(jwk), 'utf8'), kid);
}

function open(deps: KeyDeps, kid: string, sealed: string): SigningJwk {
  const jwk = openText(encryptionKey(deps), sealed, kid, `signing key ${kid}`);
  return JSON.parse(jwk.toString('utf8')) as SigningJwk;
}

/**
 * A new private signing key as a JWK. The generator hands out DER, re-read into a KeyObject of its own before the
 * JWK export: on Node 20, exporting the generator's own KeyObject can deadlock the process when a garbage
 * collection during the export finalises the key-generation job, whose destructor takes the lock the export
 * holds (seen in CI as a test process hung in ExportJWK → GC → ~KeyGenJob; reproduced by a loop of EC key
 * generations, and covered by test/oidc-keygen.test.ts).
 */
export function generateSigningJwk(alg: SigningAlg): SigningJwk {
  const publicKeyEncoding = { type: 'spki', format: 'der' } as const;
  const privateKeyEncoding = { type: 'pkcs8', format: 'der' } as const;
  const der: Buffer =
    alg === 'RS256'
      ? generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding, privateKeyEncoding }).privateKey
      : generateKeyPairSync('ec', { namedCurve: 'P-256', publicKeyEncoding, privateKeyEncoding }).privateKey;
  const key = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  return { ...key.export({ format: 'jwk' }), kid: randomToken(12), alg, use: 'sig' };
}

async function withKeysLock<T>(deps: KeyDeps, work: (transaction: Transaction) => Promise<T>): Promise<T> {
  // On SQLite the transaction takes the write lock at BEGIN (IMMEDIATE): a deferred one that read the keys and then
  // wrote would fail at once with SQLITE_BUSY when another process (a server, while `attestly keys rotate` runs)
  // committed in between, instead of waiting its turn under the busy timeout.
  const options = deps.db.dialect === 'postgres' ? {} : { type: Transaction.TYPES.IMMEDIATE };
  return deps.db.sequelize.transaction(options, async (transaction) => {
    // Two replicas starting together on an empty database must not both generate keys.
    if (deps.db.dialect === 'postgres') {
      await deps.db.sequelize.query(`SELECT pg_advisory_xact_lock(${PG_KEYS_LOCK})`, { transaction });
    }
    return work(transaction);
  });
}

async function insertKeys(deps: KeyDeps, transaction: Transaction, now: Date): Promise<string[]> {
  const kids: string[] = [];
  for (const alg of SIGNING_ALGS) {
    const jwk = generateSigningJwk(alg);
    await deps.db.models.OidcSigningKey.create(
      {
        kid: jwk.kid,
        alg,
        encrypted_jwk: seal(deps, jwk.kid, jwk),
        created_at: now,
        retired_at: null,
        unpublish_after: null,
      },
      { transaction },
    );
    kids.push(jwk.kid);
  }
  return kids;
}

/** Creates the first keys if there are none. Idempotent and safe to run from several replicas at once. */
export async function ensureSigningKeys(deps: KeyDeps): Promise<void> {
  const { OidcSigningKey } = deps.db.models;
  if ((await OidcSigningKey.count({ where: { retired_at: null } })) > 0) return;
  await withKeysLock(deps, async (transaction) => {
    if ((await OidcSigningKey.count({ where: { retired_at: null }, transaction })) > 0) return;
    await insertKeys(deps, transaction, deps.clock.now());
  });
}

/**
 * The JWKS the provider signs with and publishes: current keys first (oidc-provider signs with the first key of
 * an algorithm), then retired keys still within their publication window.
 */
export async function loadSigningKeys(deps: KeyDeps): Promise<{ keys: SigningJwk[]; fingerprint: string }> {
  const now = deps.clock.now();
  const rows = await deps.db.models.OidcSigningKey.findAll({
    where: { [Op.or]: [{ unpublish_after: null }, { unpublish_after: { [Op.gt]: now } }] },
    order: [['created_at', 'DESC']],
  });
  const current = rows.filter((row) => row.retired_at === null);
  const retired = rows.filter((row) => row.retired_at !== null);
  const keys = [...current, ...retired].map((row) => open(deps, row.kid, row.encrypted_jwk));
  return { keys, fingerprint: keys.map((key) => key.kid).join(',') };
}

/**
 * Adds a new key per algorithm and retires the current ones; retired keys stay published until every ID token
 * they signed has expired. Keys past that window are deleted. Returns the new key ids. Running replicas pick the
 * new keys up on their next key check (see oidc/index.ts).
 */
export async function rotateSigningKeys(deps: KeyDeps): Promise<KeyRotation> {
  const now = deps.clock.now();
  return withKeysLock(deps, (transaction) => rotateWithin(deps, transaction, now));
}

export interface KeyRotation {
  added: string[];
  retired: string[];
  removed: number;
}

async function rotateWithin(deps: KeyDeps, transaction: Transaction, now: Date): Promise<KeyRotation> {
  const { OidcSigningKey } = deps.db.models;
  const current = await OidcSigningKey.findAll({ where: { retired_at: null }, transaction });
  const unpublishAfter = new Date(now.getTime() + ID_TOKEN_TTL_SECONDS * 1000 + PUBLISH_MARGIN_MS);
  await OidcSigningKey.update(
    { retired_at: now, unpublish_after: unpublishAfter },
    { where: { kid: current.map((row) => row.kid) }, transaction },
  );
  const removed = await OidcSigningKey.destroy({
    where: { unpublish_after: { [Op.lte]: now } },
    transaction,
  });
  const added = await insertKeys(deps, transaction, now);
  return { added, retired: current.map((row) => row.kid), removed };
}

/**
 * The scheduled rotation (DESIGN.md §2 "key rotation" job): rotates when the newest current key is older than
 * `maxAgeMs`, and otherwise does nothing. Every replica runs the job; the age is checked again inside the keys
 * lock (a PostgreSQL advisory lock; SQLite's write lock), so when several find the keys due together, the first
 * rotates and the others then find fresh keys: one rotation, however many replicas. Returns null when not due.
 */
export async function rotateSigningKeysIfDue(deps: KeyDeps, maxAgeMs: number): Promise<KeyRotation | null> {
  const { OidcSigningKey } = deps.db.models;
  const due = async (transaction?: Transaction) => {
    const newest = await OidcSigningKey.findOne({
      where: { retired_at: null },
      order: [['created_at', 'DESC']],
      attributes: ['created_at'],
      transaction,
    });
    // No keys at all is ensureSigningKeys' work at start, not a rotation.
    return !!newest && deps.clock.now().getTime() - new Date(newest.created_at).getTime() >= maxAgeMs;
  };
  if (!(await due())) return null;
  return withKeysLock(deps, async (transaction) =>
    (await due(transaction)) ? rotateWithin(deps, transaction, deps.clock.now()) : null,
  );
}

/** Only the public halves, for tests and `attestly doctor`. */
export function publicJwk(key: SigningJwk): JsonWebKey {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...rest } = key;
  return rest;
}

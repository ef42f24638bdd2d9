import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Password hashing with scrypt (RFC 7914), stored as `scrypt$<log2N>$<r>$<p>$<salt>$<hash>` so that the cost can
 * be raised later without invalidating old hashes. Cost 15 (N = 32768, r = 8, p = 1, 32 MiB) takes ~60–90 ms on a
 * 2-core machine; see README "Security" and `npm run bench`.
 */
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, log2N: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** log2N;
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFKC'),
      salt,
      KEY_LENGTH,
      { N, r, p, maxmem: 256 * N * r + 1024 * 1024 },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

export async function hashPassword(password: string, cost: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost, 8, 1);
  return ['scrypt', cost, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, cost, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const [log2N, blockSize, parallelism] = [Number(cost), Number(r), Number(p)];
  // Parameters come from the database: out-of-range ones (a damaged or planted row) must not make a sign-in throw
  // or allocate gigabytes.
  if (!(
    log2N >= 1 &&
    log2N <= 20 &&
    blockSize >= 1 &&
    blockSize <= 32 &&
    parallelism >= 1 &&
    parallelism <= 16
  ))
    return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), log2N, blockSize, parallelism);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Hash of a random password, verified against when no account exists so that the response time is the same. */
const decoys = new Map<number, Promise<string>>();
export function decoyHash(cost: number): Promise<string> {
  let decoy = decoys.get(cost);
  if (!decoy) {
    decoy = hashPassword(randomBytes(16).toString('hex'), cost);
    decoys.set(cost, decoy);
  }
  return decoy;
}

import { ArchiveError } from './errors';

/**
 * The archive container's cleartext header (archive.ts): which key derivation opens the archive, with its salt and
 * parameters, a key check, and the chunk size. It is authenticated only once the key is derived (its hash is in
 * every chunk's associated data), so whatever it asks for must first be bounded by what this tool writes: a forged
 * header must not make a restore allocate gigabytes or compute for hours before the archive is refused.
 */
export const CHUNK_BYTES = 1024 * 1024;
/** scrypt as ArchiveWriter uses it (32 MiB, ≈ 0.1 s): also the most a header may ask for. */
export const SCRYPT = { N: 2 ** 15, r: 8, p: 1 } as const;
const SALT_BYTES = { min: 16, max: 64 };

export type KeyDerivation =
  { type: 'master-key'; salt: string } | { type: 'scrypt'; salt: string; N: number; r: number; p: number };

export interface ContainerHeader {
  format: 1;
  kdf: KeyDerivation;
  key_check: string;
  chunk_bytes: number;
}

const HINT =
  'Use an archive written by `attestly backup create` (or another copy of it); its header was altered or it is not an Attestly backup.';

const damaged = (what: string) => new ArchiveError(`the archive header is damaged (${what})`, HINT);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 1;

function salt(value: unknown): string {
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) throw damaged('salt');
  const bytes = Buffer.from(value, 'base64').length;
  if (bytes < SALT_BYTES.min || bytes > SALT_BYTES.max) throw damaged('salt');
  return value;
}

function keyDerivation(kdf: unknown): KeyDerivation {
  if (!isRecord(kdf)) throw damaged('key derivation');
  if (kdf.type === 'master-key') return { type: 'master-key', salt: salt(kdf.salt) };
  if (kdf.type !== 'scrypt') throw damaged('key derivation');
  const { N, r, p } = kdf;
  if (!isCount(N) || N < 2 || !Number.isInteger(Math.log2(N)) || !isCount(r) || !isCount(p))
    throw damaged('scrypt parameters');
  if (N > SCRYPT.N || r > SCRYPT.r || p > SCRYPT.p)
    throw new ArchiveError(
      `the archive asks for scrypt parameters N=${N}, r=${r}, p=${p}, more than Attestly writes (N ≤ ${SCRYPT.N}, r ≤ ${SCRYPT.r}, p ≤ ${SCRYPT.p}); refused before deriving any key`,
      HINT,
    );
  return { type: 'scrypt', salt: salt(kdf.salt), N, r, p };
}

/** Parses and bounds a container header; throws ArchiveError (exit 1, with a hint) on anything else. */
export function parseContainerHeader(bytes: Buffer): ContainerHeader {
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw damaged('not JSON');
  }
  if (!isRecord(raw)) throw damaged('not an object');
  if (typeof raw.format === 'number' && Number.isInteger(raw.format) && raw.format > 1)
    throw new ArchiveError(
      `archive format ${raw.format} is newer than this Attestly reads (1)`,
      'Restore it with the Attestly version that wrote it, or a newer one.',
    );
  if (raw.format !== 1) throw damaged('format');
  const kdf = keyDerivation(raw.kdf);
  if (typeof raw.key_check !== 'string') throw damaged('key check');
  const chunkBytes = raw.chunk_bytes;
  if (!isCount(chunkBytes) || chunkBytes > CHUNK_BYTES) throw damaged('chunk size');
  return { format: 1, kdf, key_check: raw.key_check, chunk_bytes: chunkBytes };
}

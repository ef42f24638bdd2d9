import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArchiveError, ArchiveWriter, readArchive } from '../src/modules/operators/backup/archive';

/**
 * The container header is cleartext and authenticated only once the key is derived (issue 21 item 12): what it asks
 * of scrypt, and every other field, is bounded by what ArchiveWriter writes, and anything else is an ArchiveError
 * (the CLI's exit 1 with a hint) before any key is derived.
 */
const PASSPHRASE = 'correct horse battery staple';
let dir: string;
let original: Buffer;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'attestly-header-'));
  const file = path.join(dir, 'original.backup');
  const writer = await ArchiveWriter.create(file, { passphrase: PASSPHRASE });
  await writer.frame('H', JSON.stringify({ hello: 'world' }));
  await writer.close();
  original = readFileSync(file);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MAGIC_BYTES = 16;

function header(bytes: Buffer): Record<string, unknown> {
  const length = bytes.readUInt32BE(MAGIC_BYTES);
  return JSON.parse(bytes.subarray(MAGIC_BYTES + 4, MAGIC_BYTES + 4 + length).toString('utf8')) as Record<
    string,
    unknown
  >;
}

/** The original archive with its header replaced (as someone who can write the file could). */
function forged(name: string, edit: (header: Record<string, unknown>) => unknown): string {
  const length = original.readUInt32BE(MAGIC_BYTES);
  const json = Buffer.from(JSON.stringify(edit(structuredClone(header(original)))));
  const size = Buffer.alloc(4);
  size.writeUInt32BE(json.length);
  const file = path.join(dir, `${name}.backup`);
  writeFileSync(
    file,
    Buffer.concat([
      original.subarray(0, MAGIC_BYTES),
      size,
      json,
      original.subarray(MAGIC_BYTES + 4 + length),
    ]),
  );
  return file;
}

async function open(file: string, secret: { passphrase: string } | { masterKey: Buffer }) {
  const frames: string[] = [];
  for await (const frame of readArchive(file, secret)) frames.push(frame.payload.toString('utf8'));
  return frames;
}

async function refusal(file: string): Promise<ArchiveError> {
  const error = await open(file, { passphrase: PASSPHRASE }).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ArchiveError);
  expect((error as ArchiveError).hint).toMatch(/attestly backup create/);
  return error as ArchiveError;
}

const kdf = (changes: Record<string, unknown>) => (value: Record<string, unknown>) => ({
  ...value,
  kdf: { ...(value.kdf as object), ...changes },
});

describe('the archive header', () => {
  it('is what the tool writes, and that archive opens', async () => {
    expect(header(original)).toMatchObject({
      format: 1,
      kdf: { type: 'scrypt', N: 32768, r: 8, p: 1 },
      chunk_bytes: 1024 * 1024,
    });
    expect(await open(path.join(dir, 'original.backup'), { passphrase: PASSPHRASE })).toEqual([
      '{"hello":"world"}',
    ]);
  });

  it.each([
    ['N', { N: 2 ** 16 }, 'N=65536, r=8, p=1'],
    ['N far above', { N: 2 ** 40 }, 'N=1099511627776, r=8, p=1'],
    ['r', { r: 16 }, 'N=32768, r=16, p=1'],
    ['p', { p: 2 }, 'N=32768, r=8, p=2'],
  ])(
    'refuses scrypt parameters above what the tool writes (%s) before deriving a key',
    async (name, changes, text) => {
      const error = await refusal(forged(`above-${name}`, kdf(changes)));
      expect(error.message).toBe(
        `the archive asks for scrypt parameters ${text}, more than Attestly writes (N ≤ 32768, r ≤ 8, p ≤ 1); refused before deriving any key`,
      );
    },
  );

  it.each([
    ['N not a power of two', kdf({ N: 3 }), 'scrypt parameters'],
    ['N as text', kdf({ N: '32768' }), 'scrypt parameters'],
    ['r zero', kdf({ r: 0 }), 'scrypt parameters'],
    ['p fractional', kdf({ p: 0.5 }), 'scrypt parameters'],
    ['salt not base64', kdf({ salt: '!!!' }), 'salt'],
    ['salt too short', kdf({ salt: 'AAAA' }), 'salt'],
    ['unknown derivation', kdf({ type: 'argon2' }), 'key derivation'],
    ['no derivation', (value: Record<string, unknown>) => ({ ...value, kdf: undefined }), 'key derivation'],
    ['huge chunks', (value: Record<string, unknown>) => ({ ...value, chunk_bytes: 2 ** 32 }), 'chunk size'],
    ['no key check', (value: Record<string, unknown>) => ({ ...value, key_check: 42 }), 'key check'],
    ['not an object', () => null, 'not an object'],
    ['no format', (value: Record<string, unknown>) => ({ ...value, format: 'one' }), 'format'],
  ])('refuses a header with %s as damaged', async (name, edit, what) => {
    const error = await refusal(forged(name.replace(/\W/g, '-'), edit));
    expect(error.message).toBe(`the archive header is damaged (${what})`);
  });

  it('names a newer format as such', async () => {
    const file = forged('newer', (value) => ({ ...value, format: 2 }));
    const error = await open(file, { passphrase: PASSPHRASE }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ArchiveError);
    expect((error as Error).message).toBe('archive format 2 is newer than this Attestly reads (1)');
  });
});

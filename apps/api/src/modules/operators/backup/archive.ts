import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  scrypt as scryptCallback,
  timingSafeEqual,
} from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import {
  CHUNK_BYTES,
  parseContainerHeader,
  SCRYPT,
  type ContainerHeader,
  type KeyDerivation,
} from './container-header';
import { ArchiveError } from './errors';

/**
 * The backup container (format 1): authenticated encryption in independent chunks, so any size streams through
 * bounded memory and a flipped, dropped, reordered or truncated byte is detected.
 *
 *   "ATTESTLY-BACKUP\n" | u32 header length | header JSON (cleartext: KDF and its parameters, key check)
 *                                                     (bounded before use: container-header.ts)
 *   chunk*              | u32 ciphertext length | ciphertext | 16-byte GCM tag
 *
 * Each chunk is AES-256-GCM with nonce = 0x00000000 ‖ u64 index and associated data = SHA-256(magic ‖ header) ‖
 * u64 index ‖ final flag, the STREAM construction (Hoang, Reyhanitabar, Rogaway, Vizár 2015): chunks cannot be
 * reordered or moved between archives, and an archive cut at a chunk boundary has no final chunk. The key is
 * HKDF(master key, random salt) or scrypt(passphrase, random salt), unique per archive, so counter nonces never repeat.
 *
 * Inside, the plaintext is a sequence of frames: u8 type ‖ u32 length ‖ payload.
 */
const MAGIC = Buffer.from('ATTESTLY-BACKUP\n');
const TAG_BYTES = 16;
const KEY_CHECK_LABEL = 'attestly-backup-key-check';

const scrypt = promisify(scryptCallback) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

export { ArchiveError } from './errors';

export type ArchiveSecret = { masterKey: Buffer } | { passphrase: string };

async function deriveArchiveKey(secret: ArchiveSecret, kdf: KeyDerivation): Promise<Buffer> {
  const salt = Buffer.from(kdf.salt, 'base64');
  if (kdf.type === 'master-key') {
    if (!('masterKey' in secret))
      throw new ArchiveError(
        'this archive is encrypted with a master key, not a passphrase; drop --passphrase-file',
      );
    return Buffer.from(hkdfSync('sha256', secret.masterKey, salt, 'attestly-backup-v1', 32));
  }
  if (!('passphrase' in secret))
    throw new ArchiveError('this archive is encrypted with a passphrase: pass --passphrase-file');
  return scrypt(secret.passphrase, salt, 32, { N: kdf.N, r: kdf.r, p: kdf.p, maxmem: 256 * kdf.N * kdf.r });
}

const keyCheck = (key: Buffer) => createHmac('sha256', key).update(KEY_CHECK_LABEL).digest().subarray(0, 16);

function nonce(index: number): Buffer {
  const value = Buffer.alloc(12);
  value.writeBigUInt64BE(BigInt(index), 4);
  return value;
}

function associatedData(headerHash: Buffer, index: number, final: boolean): Buffer {
  const value = Buffer.alloc(headerHash.length + 9);
  headerHash.copy(value);
  value.writeBigUInt64BE(BigInt(index), headerHash.length);
  value[headerHash.length + 8] = final ? 1 : 0;
  return value;
}

function openChunk(
  key: Buffer,
  headerHash: Buffer,
  index: number,
  final: boolean,
  body: Buffer,
  tag: Buffer,
) {
  const decipher = createDecipheriv('aes-256-gcm', key, nonce(index));
  decipher.setAAD(associatedData(headerHash, index, final));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(body), decipher.final()]);
  } catch {
    return null;
  }
}

export type FrameType = 'H' | 'F' | 'D' | 'E' | 'M';

/** Writes frames into an encrypted archive file; memory stays at about one chunk. */
export class ArchiveWriter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private index = 0;
  private constructor(
    private readonly file: FileHandle,
    private readonly key: Buffer,
    private readonly headerHash: Buffer,
  ) {}

  static async create(path: string, secret: ArchiveSecret): Promise<ArchiveWriter> {
    const salt = randomBytes(16).toString('base64');
    const kdf: KeyDerivation =
      'passphrase' in secret ? { type: 'scrypt', salt, ...SCRYPT } : { type: 'master-key', salt };
    const key = await deriveArchiveKey(secret, kdf);
    const header: ContainerHeader = {
      format: 1,
      kdf,
      key_check: keyCheck(key).toString('base64'),
      chunk_bytes: CHUNK_BYTES,
    };
    const headerBytes = Buffer.from(JSON.stringify(header));
    const length = Buffer.alloc(4);
    length.writeUInt32BE(headerBytes.length);
    const file = await open(path, 'wx', 0o600).catch((error: NodeJS.ErrnoException) => {
      throw new ArchiveError(`cannot write the archive in ${dirname(path)} (${error.code ?? error.message})`);
    });
    await file.write(Buffer.concat([MAGIC, length, headerBytes]));
    const headerHash = createHash('sha256').update(MAGIC).update(headerBytes).digest();
    return new ArchiveWriter(file, key, headerHash);
  }

  async frame(type: FrameType, payload: Buffer | string): Promise<void> {
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    const head = Buffer.alloc(5);
    head.write(type, 0, 'latin1');
    head.writeUInt32BE(body.length, 1);
    this.pending.push(head, body);
    this.pendingBytes += head.length + body.length;
    while (this.pendingBytes >= CHUNK_BYTES) await this.flushChunk(false);
  }

  private async flushChunk(final: boolean): Promise<void> {
    const all = Buffer.concat(this.pending);
    const plain = all.subarray(0, Math.min(CHUNK_BYTES, all.length));
    const rest = all.subarray(plain.length);
    this.pending = rest.length ? [Buffer.from(rest)] : [];
    this.pendingBytes = rest.length;
    const isFinal = final && rest.length === 0;
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce(this.index));
    cipher.setAAD(associatedData(this.headerHash, this.index, isFinal));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(body.length);
    await this.file.write(Buffer.concat([length, body, cipher.getAuthTag()]));
    this.index += 1;
  }

  /** Writes the last (final-flagged) chunk and closes the file. */
  async close(): Promise<void> {
    do await this.flushChunk(true);
    while (this.pendingBytes > 0);
    await this.file.sync();
    await this.file.close();
  }

  async abort(): Promise<void> {
    await this.file.close().catch(() => undefined);
  }
}

export interface Frame {
  type: FrameType;
  payload: Buffer;
}

/** Reads and authenticates an archive chunk by chunk, yielding its frames. Throws ArchiveError on any damage. */
export async function* readArchive(path: string, secret: ArchiveSecret): AsyncGenerator<Frame> {
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (error) {
    throw new ArchiveError(`cannot open ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    let position = 0;
    const readExactly = async (length: number, what: string): Promise<Buffer> => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await file.read(buffer, 0, length, position);
      if (bytesRead !== length) throw new ArchiveError(`the archive is truncated (in ${what})`);
      position += length;
      return buffer;
    };
    const magic = await readExactly(MAGIC.length, 'its signature').catch(() => {
      throw new ArchiveError('this is not an Attestly backup');
    });
    if (!magic.equals(MAGIC)) throw new ArchiveError('this is not an Attestly backup');
    const headerLength = (await readExactly(4, 'the header')).readUInt32BE();
    if (headerLength > 64 * 1024) throw new ArchiveError('the archive header is damaged');
    const headerBytes = await readExactly(headerLength, 'the header');
    const header = parseContainerHeader(headerBytes);
    const key = await deriveArchiveKey(secret, header.kdf);
    const expected = Buffer.from(header.key_check ?? '', 'base64');
    if (expected.length !== 16 || !timingSafeEqual(expected, keyCheck(key))) {
      throw new ArchiveError(
        header.kdf.type === 'scrypt'
          ? 'wrong passphrase for this archive'
          : 'this archive was made with a different master key',
      );
    }
    const headerHash = createHash('sha256').update(MAGIC).update(headerBytes).digest();
    const { size } = await file.stat();
    let index = 0;
    let carry: Buffer = Buffer.alloc(0);
    for (;;) {
      if (position >= size) throw new ArchiveError('the archive is truncated (its final chunk is missing)');
      const length = (await readExactly(4, 'a chunk')).readUInt32BE();
      if (length > header.chunk_bytes)
        throw new ArchiveError('the archive is damaged (a chunk is too large)');
      const body = await readExactly(length, 'a chunk');
      const tag = await readExactly(TAG_BYTES, 'a chunk');
      const final = position === size;
      const decipher = createDecipheriv('aes-256-gcm', key, nonce(index));
      decipher.setAAD(associatedData(headerHash, index, final));
      decipher.setAuthTag(tag);
      let plain: Buffer;
      try {
        plain = Buffer.concat([decipher.update(body), decipher.final()]);
      } catch {
        // A last chunk that authenticates as a middle one: the file was cut at a chunk boundary.
        if (final && openChunk(key, headerHash, index, false, body, tag))
          throw new ArchiveError('the archive is truncated (its final chunk is missing)');
        throw new ArchiveError(
          `the archive is damaged or was tampered with (chunk ${index} fails authentication)`,
        );
      }
      index += 1;
      carry = carry.length ? Buffer.concat([carry, plain]) : plain;
      let offset = 0;
      while (carry.length - offset >= 5) {
        const frameLength = carry.readUInt32BE(offset + 1);
        if (carry.length - offset - 5 < frameLength) break;
        const type = String.fromCharCode(carry[offset] as number) as FrameType;
        yield { type, payload: carry.subarray(offset + 5, offset + 5 + frameLength) };
        offset += 5 + frameLength;
      }
      carry = carry.subarray(offset);
      if (final) {
        if (carry.length) throw new ArchiveError('the archive is damaged (it ends inside a frame)');
        return;
      }
    }
  } finally {
    await file.close();
  }
}

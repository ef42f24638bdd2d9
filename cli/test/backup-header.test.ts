import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArchiveWriter } from '../../apps/api/src/modules/operators/backup/archive';
import { runCli } from './run-cli';

/**
 * A passphrase archive whose cleartext header asks scrypt for more than the tool writes, or for nonsense, is the
 * operator's problem (exit 1, one line and a hint), refused before any key is derived; never "This is a bug"
 * (issue 21 item 12).
 */
let dir: string;
let passphraseFile: string;

/** A real passphrase archive with its header's scrypt parameters replaced. */
async function archiveAsking(name: string, kdf: Record<string, unknown>): Promise<string> {
  const file = path.join(dir, `${name}.backup`);
  const writer = await ArchiveWriter.create(file, { passphrase: 'correct horse battery staple' });
  await writer.frame('H', '{}');
  await writer.close();
  const bytes = readFileSync(file);
  const length = bytes.readUInt32BE(16);
  const header = JSON.parse(bytes.subarray(20, 20 + length).toString('utf8')) as { kdf: object };
  const json = Buffer.from(JSON.stringify({ ...header, kdf: { ...header.kdf, ...kdf } }));
  const size = Buffer.alloc(4);
  size.writeUInt32BE(json.length);
  writeFileSync(file, Buffer.concat([bytes.subarray(0, 16), size, json, bytes.subarray(20 + length)]));
  return file;
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'attestly-cli-header-'));
  passphraseFile = path.join(dir, 'passphrase.txt');
  writeFileSync(passphraseFile, 'correct horse battery staple\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('attestly backup verify/restore: a forged archive header', () => {
  it('asking scrypt for 1 GiB is refused with exit 1, the parameters named and a hint', async () => {
    const file = await archiveAsking('greedy', { N: 2 ** 20 });
    const result = await runCli(['backup', 'verify', file, '--passphrase-file', passphraseFile], {
      env: { ATTESTLY_DATA_DIR: dir, DATABASE_URL: '' },
    });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(
      /^Error: the archive asks for scrypt parameters N=1048576, r=8, p=1, more than Attestly writes \(N ≤ 32768, r ≤ 8, p ≤ 1\)/,
    );
    expect(result.stderr).toMatch(/\nHint: Use an archive written by `attestly backup create`/);
    expect(result.stderr).not.toMatch(/bug/i);
  });

  it('with impossible parameters is a damaged header (exit 1, --json carries the hint), also for restore', async () => {
    const file = await archiveAsking('broken', { N: 3 });
    const verified = await runCli(['backup', 'verify', file, '--passphrase-file', passphraseFile, '--json'], {
      env: { ATTESTLY_DATA_DIR: dir, DATABASE_URL: '' },
    });
    expect(verified.code, verified.stderr).toBe(1);
    expect(JSON.parse(verified.stdout)).toEqual({
      ok: false,
      error: {
        message: 'the archive header is damaged (scrypt parameters)',
        hint: expect.stringContaining('attestly backup create'),
      },
    });
    const target = mkdtempSync(path.join(dir, 'target-'));
    const restored = await runCli(['backup', 'restore', file, '--passphrase-file', passphraseFile], {
      env: { ATTESTLY_DATA_DIR: target, DATABASE_URL: '', ATTESTLY_MASTER_KEY: 'ab'.repeat(32) },
    });
    expect(restored.code, restored.stderr).toBe(1);
    expect(restored.stderr).toMatch(/^Error: the archive header is damaged \(scrypt parameters\)\nHint: /);
  });
});

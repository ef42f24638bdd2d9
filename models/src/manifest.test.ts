import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModelIntegrityError } from './errors';
import { sha256File, verifyManifest, type ModelManifest } from './manifest';

function fakePackage(): { dir: string; manifest: ModelManifest } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attestly-manifest-'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ version: '1.2.3' }));
  fs.writeFileSync(path.join(dir, 'model.bin'), 'weights');
  return {
    dir,
    manifest: {
      generated_by: 'test',
      files: [
        {
          role: 'x',
          package: 'fake',
          version: '1.2.3',
          path: 'model.bin',
          sha256: sha256File(path.join(dir, 'model.bin')),
          bytes: 7,
        },
      ],
    },
  };
}

describe('verifyManifest', () => {
  it('accepts files that match', () => {
    const { dir, manifest } = fakePackage();
    expect(() => verifyManifest(manifest, () => dir)).not.toThrow();
  });

  it('refuses a replaced model file with a clear error', () => {
    const { dir, manifest } = fakePackage();
    fs.writeFileSync(path.join(dir, 'model.bin'), 'tampered');
    expect(() => verifyManifest(manifest, () => dir)).toThrow(ModelIntegrityError);
    expect(() => verifyManifest(manifest, () => dir)).toThrow(/model\.bin: sha256 .* differs/);
  });

  it('refuses a different package version', () => {
    const { dir, manifest } = fakePackage();
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ version: '2.0.0' }));
    expect(() => verifyManifest(manifest, () => dir)).toThrow(/installed 2\.0\.0, manifest expects 1\.2\.3/);
  });

  it('passes on the committed manifest with the installed packages', async () => {
    const committed = JSON.parse(
      fs.readFileSync(new URL('../manifest.json', import.meta.url), 'utf8'),
    ) as ModelManifest;
    expect(() => verifyManifest(committed)).not.toThrow();
  });
});

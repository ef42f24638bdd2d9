import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ModelIntegrityError } from './errors';
import { ageCnnDir } from './age-cnn';
import { packageDir } from './model-files';

/** This package's own trained weights sit in models/weights, wherever the code runs from (source or bundle). */
export const OWN_PACKAGE = '@attestly/models';
export function manifestPackageDir(pkg: string): string {
  return pkg === OWN_PACKAGE ? path.dirname(ageCnnDir()) : packageDir(pkg);
}

export interface ManifestEntry {
  /** What the engine uses the file for. */
  role: string;
  package: string;
  version: string;
  /** Path inside the package directory. */
  path: string;
  sha256: string;
  bytes: number;
}

export interface ModelManifest {
  generated_by: string;
  files: ManifestEntry[];
}

export function sha256File(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

export function installedVersion(pkg: string): string {
  const json = JSON.parse(fs.readFileSync(path.join(manifestPackageDir(pkg), 'package.json'), 'utf8')) as {
    version: string;
  };
  return json.version;
}

/**
 * Checks every model file against the manifest. Any difference (package upgraded, file replaced or missing)
 * is an error listing all problems: the engine must not silently run weights nobody measured.
 */
export function verifyManifest(
  manifest: ModelManifest,
  resolvePackageDir: (pkg: string) => string = manifestPackageDir,
): void {
  const problems: string[] = [];
  const versions = new Map<string, string>();
  for (const entry of manifest.files) {
    let dir: string;
    try {
      dir = resolvePackageDir(entry.package);
    } catch {
      problems.push(`${entry.package} is not installed`);
      continue;
    }
    if (!versions.has(entry.package)) {
      try {
        const json = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
          version: string;
        };
        versions.set(entry.package, json.version);
      } catch {
        versions.set(entry.package, 'unknown');
      }
    }
    const version = versions.get(entry.package);
    if (version !== entry.version) {
      problems.push(`${entry.package}: installed ${version}, manifest expects ${entry.version}`);
    }
    const file = path.join(dir, entry.path);
    if (!fs.existsSync(file)) {
      problems.push(`${entry.package}/${entry.path} is missing`);
      continue;
    }
    const digest = sha256File(file);
    if (digest !== entry.sha256) {
      problems.push(`${entry.package}/${entry.path}: sha256 ${digest} differs from manifest ${entry.sha256}`);
    }
  }
  if (problems.length) {
    throw new ModelIntegrityError(
      `Model files do not match models/manifest.json; refusing to start:\n- ${problems.join('\n- ')}\n` +
        'Reinstall the pinned packages, or if the upgrade is intended re-run the evaluation and ' +
        '`tsx models/scripts/update-manifest.ts`.',
    );
  }
}

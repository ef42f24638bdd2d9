import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';
import { configFilePath, parseConfigFile, writeConfigFile } from './config-file';

const KEY = 'a'.repeat(64);

describe('config file', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'attestly-config-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('parses KEY=value lines, comments, quotes and export prefixes', () => {
    expect(
      parseConfigFile(
        '# comment\nPORT=9000\nexport HOST = 127.0.0.1\nATTESTLY_MAIL_FROM="A B <a@b.c>"\n\nnot a line',
      ),
    ).toEqual({
      PORT: '9000',
      HOST: '127.0.0.1',
      ATTESTLY_MAIL_FROM: 'A B <a@b.c>',
    });
  });

  it('is read from the data directory; the environment wins and empty values fall back to the file', () => {
    const dataDir = tempDir();
    writeConfigFile(
      path.join(dataDir, 'attestly.env'),
      {
        PORT: '9000',
        ATTESTLY_PUBLIC_URL: 'https://verify.example.com',
        ATTESTLY_MAIL_FROM: 'Ops <ops@example.com>',
      },
      'written by a test',
    );
    expect(statSync(path.join(dataDir, 'attestly.env')).mode & 0o777).toBe(0o600);
    const config = loadConfig({
      ATTESTLY_DATA_DIR: dataDir,
      ATTESTLY_MASTER_KEY: KEY,
      PORT: '7000',
      ATTESTLY_PUBLIC_URL: '',
    });
    expect(config.port).toBe(7000);
    expect(config.publicUrl).toBe('https://verify.example.com');
    expect(config.mailFrom).toBe('Ops <ops@example.com>');
  });

  it('reports a bad value from the file, and a missing file named by ATTESTLY_CONFIG, as configuration errors', () => {
    const dataDir = tempDir();
    writeFileSync(path.join(dataDir, 'attestly.env'), 'PORT=eighty\n');
    expect(() => loadConfig({ ATTESTLY_DATA_DIR: dataDir, ATTESTLY_MASTER_KEY: KEY })).toThrow(
      /PORT must be a port number/,
    );
    const missing = path.join(dataDir, 'nope.env');
    expect(configFilePath({ ATTESTLY_CONFIG: missing })).toBe(missing);
    expect(() => loadConfig({ ATTESTLY_CONFIG: missing, ATTESTLY_MASTER_KEY: KEY })).toThrow(ConfigError);
  });
});

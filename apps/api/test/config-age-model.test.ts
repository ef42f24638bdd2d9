import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ageHeads, committedWeights, defaultAgeModel } from '@attestly/models';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attestly-config-'));
const env = (extra: Record<string, string>) => ({
  ATTESTLY_DATA_DIR: dataDir,
  ATTESTLY_MASTER_KEY: 'ab'.repeat(32),
  ...extra,
});

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('ATTESTLY_AGE_MODEL', () => {
  it('chooses the combined head, the engine’s default, unless the operator names another committed head', () => {
    expect(loadConfig(env({})).vision.ageModel).toBe('combined');
    expect(defaultAgeModel).toBe('combined');
    expect(committedWeights).toBe(ageHeads.combined);
    expect(loadConfig(env({ ATTESTLY_AGE_MODEL: 'faceres' })).vision.ageModel).toBe('faceres');
    expect(loadConfig(env({ ATTESTLY_AGE_MODEL: 'networks' })).vision.ageModel).toBe('networks');
    // Each name is a committed head the engine can load (models/src/vision-engine.ts ageHeads).
    expect(ageHeads[loadConfig(env({ ATTESTLY_AGE_MODEL: 'faceres' })).vision.ageModel].features).toBe(
      'faceres-descriptor-1024+faceres-age',
    );
    expect(ageHeads[loadConfig(env({ ATTESTLY_AGE_MODEL: 'networks' })).vision.ageModel].features).toBe(
      'faceres-age-cnn-ab',
    );
    expect(ageHeads[loadConfig(env({})).vision.ageModel].features).toBe(
      'faceres-descriptor-1024+faceres-age+age-cnn-a',
    );
  });

  it('refuses a name it does not know, saying which ones it takes', () => {
    expect(() => loadConfig(env({ ATTESTLY_AGE_MODEL: 'face-api' }))).toThrow(
      /ATTESTLY_AGE_MODEL must be faceres, networks or combined/,
    );
  });
});

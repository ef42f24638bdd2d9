/**
 * The labelled faces the age head is trained and calibrated on (train-age-head.ts), each with its feature vector:
 * the age networks' out-of-fold scores, or faceres's observations from the cache.
 */
import path from 'node:path';
import type { AgeFeatureSet } from '../../src/age-head';
import { ageModelsRead, featureVector } from '../../src/age-head';
import { ageCnnFeatures } from '../../src/age-cnn';
import { assessQuality } from '../../src/quality';
import { readCsv } from './csv';
import { observeFiles } from './observe-dataset';
import { readAgeCnnScores } from './age-cnn-scores';

export const SOURCES = ['faces-dev', 'faces-train', 'faces-aaf'] as const;
export type Source = (typeof SOURCES)[number];

export interface Face {
  source: Source;
  age: number;
  gender: string;
  race: string;
  gate: boolean;
  x: Float64Array | null;
  /** faceres's own age (the last feature), kept for the raw rule's spread. */
  rawAge: number;
}

export type FaceCounts = Record<string, { rows: number; observed: number; faces: number; gated: number }>;

/** Every face of the `present` sources under `dataDir` with a known age and a feature vector, and counts per source. */
export async function readFaces(options: {
  dataDir: string;
  present: readonly Source[];
  featureSet: AgeFeatureSet;
  cnnDir: string;
  /** The crops' index (quality metrics, faces not found); default: age-crops beside `cnnDir`. */
  cropDir?: string;
  cacheOnly: boolean;
}): Promise<{ faces: Face[]; counts: FaceCounts }> {
  const { dataDir, present, featureSet, cnnDir, cropDir, cacheOnly } = options;
  const faces: Face[] = [];
  const counts: FaceCounts = {};
  const read = ageModelsRead(featureSet);
  const cnnScores = read.ageNetworks.length
    ? readAgeCnnScores(cnnDir, {
        mirror: read.ageNetworksMirror,
        networks: read.ageNetworks,
        ...(cropDir ? { cropDir } : {}),
      })
    : null;
  // The combined head reads both: faceres's observation and the networks' distribution of the same image.
  const both = read.ageNetworks.length > 0 && read.ageReadsFaceres;
  for (const source of present) {
    const rows = readCsv(path.join(dataDir, source, 'labels.csv'));
    if (cnnScores && !both) {
      // The age networks' out-of-fold distributions on the production crops (train_age_cnn.py), with the crops'
      // quality metrics: the networks ran in Python on exactly the input the engine feeds them.
      const c = { rows: rows.length, observed: 0, faces: 0, gated: 0 };
      for (const r of rows) {
        const scored = cnnScores.get(`${source}/${r.file}`);
        const age = Number(r.age);
        if (scored === undefined) continue;
        c.observed++;
        if (!scored.probs || !Number.isFinite(age)) continue;
        c.faces++;
        const gate = assessQuality(scored.quality).ok;
        if (gate) c.gated++;
        const x = ageCnnFeatures(scored.probs);
        faces.push({
          source,
          age,
          gender: r.gender ?? '',
          race: r.race ?? '',
          gate,
          x: Float64Array.from(x),
          rawAge: x[0]!,
        });
      }
      counts[source] = c;
      continue;
    }
    const observed = await observeFiles(
      rows.map((r) => path.join(dataDir, source, r.file!)),
      source,
      { cacheOnly, op: 'descriptor' },
    );
    const c = { rows: rows.length, observed: 0, faces: 0, gated: 0 };
    observed.forEach((o, i) => {
      if (o.error !== 'not_observed') c.observed++;
      const age = Number(rows[i]!.age);
      if (!o.obs || !Number.isFinite(age)) return;
      // The engine's observation holds both when the head reads both.
      const probs = both ? cnnScores?.get(`${source}/${rows[i]!.file}`)?.probs : undefined;
      if (both && !probs) return;
      c.faces++;
      const gate = assessQuality(o.obs.quality).ok;
      if (gate) c.gated++;
      faces.push({
        source,
        age,
        gender: rows[i]!.gender ?? '',
        race: rows[i]!.race ?? '',
        gate,
        x: Float64Array.from(
          featureVector(
            probs ? { ...o.obs, faceresAge: o.obs.modelAge, ageDistribution: probs } : o.obs,
            featureSet,
          ),
        ),
        rawAge: o.obs.modelAge,
      });
    });
    counts[source] = c;
  }
  return { faces, counts };
}

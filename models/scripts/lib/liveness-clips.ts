import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createVisionEngine, VisionInputError } from '../../src/index';
import { modelManifest } from '../../src/vision-engine';
import type { VideoObservation } from '../../src/types';
import { readCsv } from './csv';
import { trimmedGenuineClip } from './liveness-attacks';

// The clips `npm run eval:liveness` scores and their per-frame tracks: the attack set's manifest and the genuine
// recordings' labels, and each clip's observation from the vision engine, cached by the clip's hash and the model
// files' (models/manifest.json): a track keeps the age networks' outputs, so retrained networks observe again.
// TRACK_FORMAT names what a stored track holds (2: the midline anchor patches; 3: the best frames' passive cues),
// so older tracks are observed again.
const TRACK_FORMAT = 'track-format:3';
const modelsKey = crypto
  .createHash('sha256')
  .update(JSON.stringify(modelManifest))
  .update(TRACK_FORMAT)
  .digest('hex');

export type Observed = { obs: VideoObservation } | { error: string };
export interface Clip {
  name: string;
  kind: string;
  split: 'tune' | 'report' | 'bona_fide' | 'bona_fide_tune';
  file: string;
  trim: boolean;
}

/**
 * The attack clips (at most `limit / 2` per kind and half) and the genuine recordings, split by person, listed by
 * kind and in an order that interleaves the kinds.
 */
export function listClips(options: { attacksDir: string; genuineDir: string; limit: number }) {
  const { attacksDir, genuineDir, limit } = options;
  const clips: Clip[] = [];
  const manifest = path.join(attacksDir, 'manifest.csv');
  if (fs.existsSync(manifest)) {
    const rows = readCsv(manifest);
    const counts = new Map<string, number>();
    for (const r of rows) {
      const key = `${r.kind}:${r.split}`;
      const n = counts.get(key) ?? 0;
      if (n >= limit / 2) continue;
      counts.set(key, n + 1);
      clips.push({
        name: r.file!,
        kind: r.kind!,
        split: r.split as 'tune' | 'report',
        file: path.join(attacksDir, r.file!),
        trim: false,
      });
    }
  } else {
    console.error(
      `no attack set at ${attacksDir}: run \`npm run make:liveness-attacks\` first (attacks skipped).`,
    );
  }
  if (fs.existsSync(path.join(genuineDir, 'labels.csv'))) {
    for (const r of readCsv(path.join(genuineDir, 'labels.csv')))
      clips.push({
        name: r.file!,
        kind: 'bona_fide',
        // One clip per person here; split by person all the same, so that a person never lands in both halves.
        split:
          crypto.createHash('sha256').update(`person:${r.person_id}`).digest()[0]! % 2 === 0
            ? 'bona_fide_tune'
            : 'bona_fide',
        file: path.join(genuineDir, r.file!),
        trim: true,
      });
  } else {
    console.error(`no genuine clips at ${genuineDir} (BPCER skipped).`);
  }
  // Interleave so that an interrupted run has scored every kind about equally (the cache keeps what was done).
  const byKind = new Map<string, Clip[]>();
  for (const c of clips) byKind.set(c.kind, [...(byKind.get(c.kind) ?? []), c]);
  const ordered: Clip[] = [];
  for (let i = 0; ordered.length < clips.length; i++)
    for (const list of byKind.values()) if (list[i]) ordered.push(list[i]!);
  return { clips, byKind, ordered };
}

/**
 * Each clip's track (engine.observeVideo), from the cache folder where it was scored before. Genuine clips are
 * trimmed and re-encoded first (trimmedGenuineClip). `cachedOnly`: no model runs, cached tracks only.
 */
export async function observeClips(
  ordered: readonly Clip[],
  options: { cacheDir: string; cachedOnly: boolean; quiet: boolean },
): Promise<Map<string, Observed>> {
  const { cacheDir, cachedOnly, quiet } = options;
  fs.mkdirSync(cacheDir, { recursive: true });
  const engine = createVisionEngine(cachedOnly ? { workers: 1 } : {});
  const observed = new Map<string, Observed>();
  // Genuine clips are re-encoded before scoring; remember each one's key so a re-run need not re-encode it.
  const indexFile = path.join(cacheDir, 'trimmed-index.json');
  const trimmedIndex = (
    fs.existsSync(indexFile) ? JSON.parse(fs.readFileSync(indexFile, 'utf8')) : {}
  ) as Record<string, string>;
  let scored = 0;
  const t0 = performance.now();
  try {
    let ready = false;
    for (const clip of ordered) {
      // A genuine clip is known by its file, its size and the model files that observed it.
      const indexKey = `${modelsKey.slice(0, 16)}:${clip.file}:${fs.statSync(clip.file).size}`;
      const known = clip.trim ? trimmedIndex[indexKey] : undefined;
      if (known && fs.existsSync(path.join(cacheDir, `${known}.json`))) {
        observed.set(
          clip.name,
          JSON.parse(fs.readFileSync(path.join(cacheDir, `${known}.json`), 'utf8')) as Observed,
        );
        continue;
      }
      if (cachedOnly && clip.trim) continue;
      const bytes = clip.trim ? trimmedGenuineClip(clip.file) : fs.readFileSync(clip.file);
      const key = crypto.createHash('sha256').update(modelsKey).update(bytes).digest('hex').slice(0, 24);
      if (clip.trim) {
        trimmedIndex[indexKey] = key;
        fs.writeFileSync(indexFile, JSON.stringify(trimmedIndex));
      }
      const cached = path.join(cacheDir, `${key}.json`);
      if (fs.existsSync(cached)) {
        observed.set(clip.name, JSON.parse(fs.readFileSync(cached, 'utf8')) as Observed);
        continue;
      }
      if (cachedOnly) continue;
      if (!ready) {
        await engine.ready;
        ready = true;
      }
      let value: Observed;
      try {
        const { decodeMs: _decodeMs, ...obs } = await engine.observeVideo(bytes);
        value = { obs };
      } catch (error) {
        if (!(error instanceof VisionInputError)) throw error;
        value = { error: error.code };
      }
      fs.writeFileSync(cached, JSON.stringify(value));
      observed.set(clip.name, value);
      scored++;
      if (!quiet && scored % 20 === 0)
        console.error(`  scored ${scored} new clips (${Math.round((performance.now() - t0) / 1000)} s)`);
    }
  } finally {
    await engine.close();
  }
  return observed;
}

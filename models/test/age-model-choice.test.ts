import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyAgeHead } from '../src/age-head';
import { ageHeads, createVisionEngine, type VisionEngine } from '../src/index';
import { adultMale40s, fixture } from './media';

/**
 * The operator's choice of age head (ATTESTLY_AGE_MODEL, issue 22): each committed head is decided from the
 * features it was trained on, and the engine runs the age networks only for the heads that read them, and faceres
 * on a photo only for the heads that read it.
 */
const engines: Partial<Record<keyof typeof ageHeads, VisionEngine>> = {};

beforeAll(async () => {
  for (const model of ['faceres', 'networks', 'combined'] as const) {
    engines[model] = createVisionEngine({ workers: 1, weights: ageHeads[model] });
    await engines[model].ready;
  }
}, 120_000);

afterAll(async () => {
  await Promise.all(Object.values(engines).map((e) => e.close()));
});

describe('age model choice', () => {
  it('offers the faceres, networks and combined heads, each naming its own features', () => {
    expect(ageHeads.faceres.features).toBe('faceres-descriptor-1024+faceres-age');
    expect(ageHeads.networks.features).toBe('faceres-age-cnn-ab');
    expect(ageHeads.combined.features).toBe('faceres-descriptor-1024+faceres-age+age-cnn-a');
    for (const head of [ageHeads.networks, ageHeads.combined])
      expect(head.cutoffs.map((c) => c.threshold)).toEqual(ageHeads.faceres.cutoffs.map((c) => c.threshold));
  });

  it.each(['faceres', 'networks', 'combined'] as const)(
    'the %s head decides a photo from its own features',
    async (model) => {
      const engine = engines[model]!;
      const photo = fixture(adultMale40s);
      const obs = await engine.observePhoto(photo);
      // The networks' age distribution is measured only when the head reads it, faceres's descriptor likewise; with
      // both, faceres's own age is kept beside the networks' (modelAge).
      expect(obs.ageDistribution !== undefined).toBe(model !== 'faceres');
      expect(obs.descriptor.length > 0).toBe(model !== 'networks');
      expect(obs.faceresAge !== undefined).toBe(model === 'combined');
      const head = applyAgeHead(ageHeads[model], obs);
      const r = await engine.analyzePhoto(photo, { thresholds: [18] });
      expect(r.age).toBe(Math.round(head.age * 10) / 10);
      expect(r.age).toBeGreaterThan(25);
      expect(r.age).toBeLessThan(65);
    },
    60_000,
  );
});

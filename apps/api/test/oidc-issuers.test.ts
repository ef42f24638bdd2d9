import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger';
import { createOidc } from '../src/oidc';
import { createTestApp, logCapture, type TestApp } from './helpers';

/** Issue 15 item 10: replicas on one database must share one issuer; a replica that disagrees is warned at start. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
});
afterAll(async () => {
  await t?.close();
});

async function replica(publicUrl: string) {
  const logs = logCapture();
  const logger = createLogger(t.config, logs.stream);
  const oidc = await createOidc(
    { ...t.deps, config: { ...t.config, publicUrl }, logger },
    { keyCheckIntervalMs: 0 },
  );
  // Pino writes asynchronously; give it a turn.
  await new Promise((resolve) => setTimeout(resolve, 50));
  oidc.close();
  return logs.lines.filter(
    (line) => line.level === 40 && /different OpenID Connect issuer/.test(String(line.msg)),
  );
}

describe('one issuer for every replica', () => {
  it('stays quiet when the replicas agree', async () => {
    expect(await replica(t.config.publicUrl)).toEqual([]);
  });

  it('warns at start when another live replica announced a different issuer, naming both', async () => {
    const warnings = await replica('http://other-name.example');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      issuer: 'http://other-name.example/oauth2',
      other_issuer: `${t.baseUrl}/oauth2`,
    });
  });

  it('lets the first replica see the disagreement on its next announcement too', async () => {
    expect(await t.oidc?.announceIssuer()).toEqual(['http://other-name.example/oauth2']);
  });
});

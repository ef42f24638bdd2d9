import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';
import { createSite, fullFlow, registerPartner, verifiedUser } from './oidc-helpers';

/**
 * The partner SDK as the appliance serves it (issue 25 item 2), and the spec's quick start (spec 01 §1: a client
 * with an API key and an environment, a verify-age call, a boolean) run against it the way a partner would: the
 * served tarball installed with npm into an empty project, and a script there calling this test server.
 */
// The test server runs in this process: npm and the partner's script must run without blocking it.
const run = promisify(execFile);
const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const sdkVersion = (
  JSON.parse(readFileSync(path.join(root, 'apps/sdk/package.json'), 'utf8')) as { version: string }
).version;

let t: TestApp;
let project: string;
beforeAll(async () => {
  // What `npm run build` does for the SDK: the bundles, the packed tarball and the browser module.
  execFileSync(process.execPath, ['build.mjs'], { cwd: path.join(root, 'apps/sdk'), stdio: 'inherit' });
  t = await createTestApp({ withOidc: true });
  project = mkdtempSync(path.join(tmpdir(), 'attestly-partner-'));
}, 180_000);
afterAll(async () => {
  await t?.close();
  if (project) rmSync(project, { recursive: true, force: true });
});

const tarball = `attestly-sdk-${sdkVersion}.tgz`;
const browserModule = `attestly-sdk-browser-${sdkVersion}.js`;

describe('SDK downloads', () => {
  it('lists the versioned files with their integrity and the npm install line', async () => {
    const index = await fetch(`${t.baseUrl}/sdk/index.json`);
    expect(index.status).toBe(200);
    const body = (await index.json()) as Record<string, { url: string; integrity: string } | string>;
    expect(body).toMatchObject({
      name: '@attestly/sdk',
      version: sdkVersion,
      tarball: { url: `${t.baseUrl}/sdk/${tarball}` },
      browser_module: { url: `${t.baseUrl}/sdk/${browserModule}` },
      install: `npm install ${t.baseUrl}/sdk/${tarball}`,
    });
    const served = Buffer.from(await (await fetch(`${t.baseUrl}/sdk/${tarball}`)).arrayBuffer());
    expect((body.tarball as { integrity: string }).integrity).toBe(
      `sha512-${createHash('sha512').update(served).digest('base64')}`,
    );
  });

  it('serves the tarball as a download and the browser module to other origins, cached by version', async () => {
    const file = await fetch(`${t.baseUrl}/sdk/${tarball}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/gzip');
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${tarball}"`);
    expect(file.headers.get('cache-control')).toContain('immutable');
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));

    const module = await fetch(`${t.baseUrl}/sdk/${browserModule}`, {
      headers: { Origin: 'https://shop.example.com' },
    });
    expect(module.status).toBe(200);
    expect(module.headers.get('content-type')).toMatch(/^text\/javascript/);
    // <script type="module"> from a partner's page is a CORS request, and must not be blocked by CORP.
    expect(module.headers.get('access-control-allow-origin')).toBe('*');
    expect(module.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const source = await module.text();
    expect(source).toContain('openConsentPopup');
    expect(source).not.toMatch(/node:crypto/);
    // Every other response keeps the same-origin policy.
    expect((await fetch(`${t.baseUrl}/healthz`)).headers.get('cross-origin-resource-policy')).toBe(
      'same-origin',
    );
  });

  it('redirects the stable "latest" links to the versioned files and answers 404 for anything else', async () => {
    const latest = await fetch(`${t.baseUrl}/sdk/attestly-sdk-latest.tgz`, { redirect: 'manual' });
    expect(latest.status).toBe(302);
    expect(latest.headers.get('location')).toBe(`/sdk/${tarball}`);
    const latestModule = await fetch(`${t.baseUrl}/sdk/attestly-sdk-browser-latest.js`, {
      redirect: 'manual',
    });
    expect(latestModule.headers.get('location')).toBe(`/sdk/${browserModule}`);
    const unknown = await fetch(`${t.baseUrl}/sdk/attestly-sdk-0.0.0.tgz`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { code: string }).code).toBe('not_found');
    const traversal = await fetch(`${t.baseUrl}/sdk/..%2F..%2Fpackage.json`);
    expect(traversal.status).toBe(404);
  });
});

describe("the spec's quick start, with the SDK installed from the appliance", () => {
  it('initialises a client with an API key and an environment, and verify-age answers a boolean', async () => {
    // A partner, a site, a user who proved 21 and signed in to the site with AGE_18, and a live key.
    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token);
    const adult = await verifiedUser(t, { proven_min_age: 21 });
    const signedIn = await fullFlow(t, site, adult);
    const sub = signedIn.tokens.claims()?.sub as string;
    const unproven = await verifiedUser(t);
    const other = await fullFlow(t, site, unproven);
    const otherSub = other.tokens.claims()?.sub as string;
    const key = await t.request
      .post('/api/v1/partners/api-keys')
      .set('Authorization', `Bearer ${partner.token}`)
      .send({ environment: 'live' })
      .expect(201);

    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'shop', private: true, type: 'module' }),
    );
    // Exactly the line the appliance gives (/sdk/index.json, also shown on /docs/sdk).
    const { install } = (await (await fetch(`${t.baseUrl}/sdk/index.json`)).json()) as { install: string };
    const [command, ...args] = install.split(' ');
    expect(command).toBe('npm');
    await run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: project });
    const installed = JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(installed.dependencies['@attestly/sdk']).toBe(`${t.baseUrl}/sdk/${tarball}`);

    writeFileSync(
      path.join(project, 'quick-start.mjs'),
      `import { Attestly } from '@attestly/sdk';
const client = new Attestly({ apiKey: process.env.KEY, environment: 'production', baseUrl: process.env.BASE });
const results = [];
for (const userId of [process.env.ADULT, process.env.OTHER]) {
  const result = await client.verifyAge({ userId, ageThreshold: 18 });
  results.push(result.verified);
}
const refused = await client.verifyAge({ userId: process.env.ADULT, ageThreshold: 21 }).catch((error) => error);
const stranger = await client.verifyAge({ userId: 'someone-else' }).catch((error) => error);
let card;
try { client.verifyAge({ userId: process.env.ADULT, method: 'credit_card', cardData: { card_number: '4242' } }); }
catch (error) { card = error.message; }
console.log(JSON.stringify({ results, refused: [refused.status, refused.code], stranger: [stranger.status, stranger.code], card }));
`,
    );
    const { stdout: output } = await run(process.execPath, ['quick-start.mjs'], {
      cwd: project,
      env: {
        ...process.env,
        KEY: key.body.api_key as string,
        BASE: t.baseUrl,
        ADULT: sub,
        OTHER: otherSub,
      },
      encoding: 'utf8',
    });
    expect(JSON.parse(output.trim())).toEqual({
      results: [true, false],
      // The user granted AGE_18 only: whether they are over 21 is not the partner's to learn.
      refused: [403, 'partner.scope_not_granted'],
      stranger: [404, 'partner.user_not_connected'],
      card: expect.stringMatching(/card numbers must not pass through your server/),
    });
  }, 180_000);
});

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { launchChromium } from '../e2e/chromium';

/**
 * Web benchmark (called by `npm run bench`): gzip sizes of the built route chunks, from the Vite manifest, and the
 * landing page's first contentful paint in headless Chromium against a running server. Targets: landing JS
 * ≤ 150 KB gzip, FCP ≤ 1 s.
 */
const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), '../dist');

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const gzipBytes = (file: string) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;

/** The chunk and every chunk it statically imports: what the browser must download before running it. */
function closure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) closure(manifest, imported, seen);
  return seen;
}

const jsBytes = (manifest: Manifest, keys: Iterable<string>) =>
  [...keys].reduce((sum, key) => sum + gzipBytes((manifest[key] as ManifestChunk).file), 0);

/** `src/routes/_user/dashboard.tsx?tsr-split=component` → `/dashboard`; pathless `_layout` segments vanish. */
function routePath(key: string): string {
  const file = key.replace(/^src\/routes\//, '').replace(/\.tsx\?.*$/, '');
  const segments = file.split('/').filter((segment) => !segment.startsWith('_') && segment !== 'index');
  return `/${segments.join('/')}`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export function bundleSizes(): Record<string, number | Record<string, number>> {
  const manifestFile = path.join(dist, '.vite/manifest.json');
  if (!existsSync(manifestFile))
    throw new Error(`no ${manifestFile}: build the web app first (npm run build)`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error('the Vite manifest has no entry chunk');
  const entry = closure(manifest, entryKey);

  const routeChunks: Record<string, number> = {};
  let landingKeys = new Set(entry);
  for (const [key, chunk] of Object.entries(manifest)) {
    if (!key.startsWith('src/routes/') || !key.endsWith('?tsr-split=component')) continue;
    routeChunks[routePath(key)] = gzipBytes(chunk.file);
    if (key === 'src/routes/index.tsx?tsr-split=component')
      landingKeys = closure(manifest, key, new Set(entry));
  }
  const css = [...new Set(Object.values(manifest).flatMap((chunk) => chunk.css ?? []))];
  return {
    entry_js_gzip_bytes: jsBytes(manifest, entry),
    landing_js_gzip_bytes: jsBytes(manifest, landingKeys),
    css_gzip_bytes: css.reduce((sum, file) => sum + gzipBytes(file), 0),
    route_chunk_gzip_bytes: Object.fromEntries(
      Object.entries(routeChunks).sort(([a], [b]) => a.localeCompare(b)),
    ),
  };
}

/**
 * First contentful paint of `/` (and, to show when the real content is up, its largest contentful paint), each
 * load in a fresh browser profile so nothing comes from cache.
 */
export async function landingPaints(baseUrl: string, runs = 5): Promise<{ fcp: number[]; lcp: number[] }> {
  const browser = await launchChromium();
  try {
    const fcp: number[] = [];
    const lcp: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto(new URL('/', baseUrl).toString(), { waitUntil: 'load' });
      await page.locator('h1').waitFor();
      const handle = await page.waitForFunction(
        () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
        undefined,
        { timeout: 10_000 },
      );
      fcp.push(Math.round((await handle.jsonValue()) as number));
      lcp.push(
        await page.evaluate(
          () =>
            new Promise<number>((resolve) => {
              let last = 0;
              new PerformanceObserver((list) => {
                for (const entry of list.getEntries()) last = entry.startTime;
              }).observe({ type: 'largest-contentful-paint', buffered: true });
              setTimeout(() => resolve(Math.round(last)), 250);
            }),
        ),
      );
      await context.close();
    }
    return { fcp, lcp };
  } finally {
    await browser.close();
  }
}

export async function runWebBench(baseUrl: string): Promise<Record<string, number | Record<string, number>>> {
  const sizes = bundleSizes();
  const { fcp, lcp } = await landingPaints(baseUrl);
  return {
    ...sizes,
    landing_js_gzip_kb: Math.round(((sizes.landing_js_gzip_bytes as number) / 1024) * 10) / 10,
    landing_fcp_ms_median: median(fcp),
    landing_fcp_ms_max: Math.max(...fcp),
    landing_lcp_ms_median: median(lcp),
  };
}

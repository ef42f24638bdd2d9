import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type Router from '@koa/router';
import { AppError } from '../../../errors';
import { createRouter, routes } from '../../../middleware/route';

export interface SdkDownloads {
  name: string;
  version: string;
  /** File name → its bytes' SHA-512 in npm's `integrity` form. */
  files: Map<string, { path: string; integrity: string; type: string }>;
}

/**
 * The partner SDK as the appliance serves it (issue 25 item 2): `apps/sdk/build.mjs` packs the npm tarball and
 * bundles the browser helper into `apps/sdk/dist/download/`. Null when the SDK has not been built.
 */
export function findSdkDownloads(): SdkDownloads | null {
  let root: string;
  try {
    root = path.dirname(createRequire(import.meta.url).resolve('@attestly/sdk/package.json'));
  } catch {
    return null;
  }
  const { name, version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  const folder = path.join(root, 'dist', 'download');
  const wanted = [
    { file: `attestly-sdk-${version}.tgz`, type: 'application/gzip' },
    { file: `attestly-sdk-browser-${version}.js`, type: 'text/javascript; charset=utf-8' },
  ];
  if (!wanted.every(({ file }) => existsSync(path.join(folder, file)))) return null;
  const files = new Map(
    wanted.map(({ file, type }) => {
      const full = path.join(folder, file);
      const integrity = `sha512-${createHash('sha512').update(readFileSync(full)).digest('base64')}`;
      return [file, { path: full, integrity, type }] as const;
    }),
  );
  return { name, version, files };
}

/**
 * GET /sdk/index.json (what there is, with `npm install` lines), the versioned tarball
 * (`npm install https://<appliance>/sdk/attestly-sdk-<version>.tgz`) and the browser helper as an ES module for
 * `<script type="module">` on partners' pages (so it is served with CORS and a cross-origin resource policy).
 * Versioned names never change content: cached for a year.
 */
export function sdkDownloadRoutes(options: { publicUrl: string; downloads: SdkDownloads | null }): Router {
  const router = createRouter({ prefix: '/sdk' });
  const { downloads, publicUrl } = options;
  const missing = () =>
    new AppError(404, 'not_found', 'The SDK is not built on this server: run `npm run build`.');
  const route = routes(router, { tag: 'Site' });
  route.get(['/', '/index.json'], {
    summary: 'The partner SDK this appliance serves',
    description:
      'Name, version, the versioned tarball and browser module with their SHA-512 integrity, and the `npm install` line.',
    responses: {
      200: { description: 'What there is to download', contentType: 'application/json' },
      404: { description: 'The SDK was not built on this server' },
    },
    handler: ({ ctx }) => {
      if (!downloads) throw missing();
      const url = (file: string) => `${publicUrl}/sdk/${file}`;
      const tarball = `attestly-sdk-${downloads.version}.tgz`;
      const browser = `attestly-sdk-browser-${downloads.version}.js`;
      ctx.set('Cache-Control', 'public, max-age=300');
      return {
        name: downloads.name,
        version: downloads.version,
        tarball: { url: url(tarball), integrity: downloads.files.get(tarball)?.integrity },
        browser_module: { url: url(browser), integrity: downloads.files.get(browser)?.integrity },
        install: `npm install ${url(tarball)}`,
      };
    },
  });
  // Stable links for pages that do not know the version ("SDK Downloads" on /docs): they redirect to it.
  route.get(['/attestly-sdk-latest.tgz', '/attestly-sdk-browser-latest.js'], {
    summary: 'The current SDK files, by a stable address',
    responses: { 302: { description: 'Redirects to the versioned file' } },
    handler: ({ ctx }) => {
      if (!downloads) throw missing();
      ctx.set('Cache-Control', 'no-cache');
      ctx.redirect(`/sdk/${ctx.path.slice('/sdk/'.length).replace('latest', downloads.version)}`);
    },
  });
  route.get('/:file', {
    summary: 'Download an SDK file',
    description:
      '`attestly-sdk-<version>.tgz` (for `npm install <url>`) or `attestly-sdk-browser-<version>.js` (an ES module for `<script type="module">`, served with CORS).',
    responses: {
      200: { description: 'The file', contentType: 'application/octet-stream' },
      404: { description: 'No such file' },
    },
    handler: ({ ctx }) => {
      const file = downloads?.files.get(ctx.params.file ?? '');
      if (!downloads) throw missing();
      if (!file) throw new AppError(404, 'not_found', `No such SDK file; see ${publicUrl}/sdk/index.json`);
      ctx.type = file.type;
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
      if (file.type === 'application/gzip') {
        ctx.set('Content-Disposition', `attachment; filename="${ctx.params.file}"`);
      }
      return readFileSync(file.path);
    },
  });
  return router;
}

import { createReadStream, existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Middleware } from 'koa';
import { underApi } from '../lib/api-path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/**
 * Serves the built SPA with history fallback: a file that exists is served (hashed assets cached for a year),
 * any other GET that accepts HTML gets index.html so client-side routes survive a reload. Paths are resolved
 * inside the web root only.
 */
export function staticWeb(root: string): Middleware {
  const index = path.join(root, 'index.html');
  return async (ctx, next) => {
    if (
      (ctx.method !== 'GET' && ctx.method !== 'HEAD') ||
      underApi(ctx.path) ||
      ctx.path.startsWith('/oauth2/')
    ) {
      return next();
    }
    let relative: string;
    try {
      relative = decodeURIComponent(ctx.path);
    } catch {
      return next();
    }
    const file = path.join(root, path.normalize(relative));
    if (file.startsWith(root + path.sep) && !relative.endsWith('/')) {
      const info = await stat(file).catch(() => null);
      if (info?.isFile()) {
        ctx.type = TYPES[path.extname(file)] ?? 'application/octet-stream';
        ctx.length = info.size;
        ctx.set(
          'Cache-Control',
          relative.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
        );
        ctx.body = ctx.method === 'HEAD' ? null : createReadStream(file);
        return;
      }
    }
    if (path.extname(relative) || !ctx.accepts('html') || !existsSync(index)) return next();
    ctx.type = TYPES['.html'] as string;
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = createReadStream(index);
  };
}

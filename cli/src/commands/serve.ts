import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { defineCommand, examples } from '../lib/command';
import { UserError } from '../lib/errors';
import { bundled, projectRoot } from '../lib/paths';

interface ServeOptions {
  port?: string;
  host?: string;
}

/**
 * `attestly serve`: runs the very server entry that `node apps/api/dist/server.js` runs (migrations at start,
 * graceful shutdown on SIGTERM), in this process. Flags override the environment and config file.
 */
export const serveCommand = defineCommand<ServeOptions>(
  'serve',
  (command) =>
    examples(
      command
        .description('Start the Attestly server (API, OpenID Connect provider and web app)')
        .option('-p, --port <port>', 'port to listen on (default: $PORT or 8080)')
        .option('--host <host>', 'address to bind (default: $HOST or 0.0.0.0)'),
      [
        'attestly serve',
        'attestly serve --port 3000 --host 127.0.0.1',
        'DATABASE_URL=postgres://… attestly serve',
      ],
    ),
  async (_io, options) => {
    if (options.port) process.env.PORT = options.port;
    if (options.host) process.env.HOST = options.host;
    const root = projectRoot();
    const entry = bundled
      ? path.join(root, 'apps/api/dist/server.js')
      : path.join(root, 'apps/api/src/server.ts');
    if (!existsSync(entry))
      throw new UserError(`the server is not built (${entry} is missing)`, 'Run `npm run build` first.');
    await import(pathToFileURL(entry).href);
  },
);

import type { Server } from 'node:http';
import { ConfigError, loadConfig } from './config';
import { createLogger } from './logger';
import { bootstrap } from './bootstrap';
import { createApp } from './app';

const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config);
  const deps = await bootstrap(config, logger);
  const { app } = createApp(deps);
  const server: Server = app.listen(config.port, config.host, () => {
    logger.info(
      { port: config.port, host: config.host, public_url: config.publicUrl, database: deps.db.dialect, mail: deps.mailer.transport },
      `Attestly listening on ${config.publicUrl}`,
    );
  });
  server.on('error', (error: NodeJS.ErrnoException) => {
    logger.fatal({ err: error }, error.code === 'EADDRINUSE' ? `port ${config.port} is already in use` : 'server error');
    void deps.db.close().finally(() => process.exit(1));
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 120_000;

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, draining requests');
    const force = setTimeout(() => {
      logger.warn('drain timed out; closing remaining connections');
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    server.close(async () => {
      await deps.db.close();
      logger.info('stopped');
      process.exit(0);
    });
    // Idle keep-alive sockets would otherwise hold close() open until they time out.
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

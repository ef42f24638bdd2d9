import type { Server, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { ConfigError, loadConfig } from './config';
import { createLogger } from './logger';
import { bootstrap } from './bootstrap';
import { warnWithoutAutovacuum } from './db/database';
import { createApp } from './app';
import { maintenanceJobs, startJobs } from './jobs';
import { createOidc } from './oidc';
import { startVisionEngine } from './modules/users/verification/engine';

const SHUTDOWN_GRACE_MS = 10_000;
const LOG_FLUSH_MS = 100;

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
  // Buffered, asynchronous stdout: log lines (an access line per request) go out in writes of 4 KiB or at least
  // every LOG_FLUSH_MS, instead of one blocking write each. pino flushes what is left when the process exits.
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => destination.flush(), LOG_FLUSH_MS).unref();
  const logger = createLogger(config, destination);
  const deps = await bootstrap(config, logger);
  await warnWithoutAutovacuum(deps.db, logger);
  // Models load in the background while the server already answers; /readyz waits for them.
  const vision = config.vision.enabled ? startVisionEngine(config, logger) : null;
  // Before the app: the provider's signing keys come from (and on first start are created in) the database.
  const oidc = await createOidc(deps);
  const { app, services } = createApp(deps, { vision, oidc });
  // Housekeeping, the verification media purge included (jobs.ts).
  const stopJobs = startJobs(maintenanceJobs(services), logger);
  const server: Server = app.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info(
      {
        port,
        host: config.host,
        public_url: config.publicUrl,
        database: deps.db.dialect,
        mail: deps.mailer.transport,
      },
      `Attestly listening on ${config.publicUrl}`,
    );
  });
  server.on('error', (error: NodeJS.ErrnoException) => {
    logger.fatal(
      { err: error },
      error.code === 'EADDRINUSE' ? `port ${config.port} is already in use` : 'server error',
    );
    void deps.db.close().finally(() => process.exit(1));
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 120_000;

  // Node's close callback can fire while a request on a kept connection is still being handled, so in-flight
  // requests are counted here and the database stays open until they are done.
  let inFlight = 0;
  server.on('request', (_request, response: ServerResponse) => {
    inFlight += 1;
    response.once('close', () => (inFlight -= 1));
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, in_flight: inFlight }, 'shutting down: no new connections, draining requests');
    stopJobs();
    server.close();
    const deadline = Date.now() + SHUTDOWN_GRACE_MS;
    while (inFlight > 0 && Date.now() < deadline) await sleep(25);
    if (inFlight > 0) logger.warn({ in_flight: inFlight }, 'drain timed out; closing remaining connections');
    server.closeAllConnections();
    // Mail and audit work queued after responses (see users.whenIdle) still needs the database.
    await Promise.race([services.users.whenIdle(), sleep(Math.max(0, deadline - Date.now()))]);
    await vision
      ?.close()
      .catch((error: unknown) => logger.warn({ err: error }, 'vision engine did not close cleanly'));
    await deps.db.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

import os from 'node:os';
import { defineConfig, type TestProjectConfiguration } from 'vitest/config';
import { componentTests } from './apps/web/vitest.config';

/**
 * One `vitest run` for the whole repository. API tests boot the real app on a fresh SQLite database per file, or
 * on a throwaway PostgreSQL database per file when TEST_DATABASE_URL is a postgres:// URL (see .ci/run).
 *
 * ATTESTLY_TEST_SCOPE=database runs only the tests whose behaviour depends on the database TEST_DATABASE_URL names:
 * CI's second pass on PostgreSQL. It leaves out what runs the same whatever that variable says (component tests, the
 * vision models, browser journeys on their own SQLite server), the files that always use both databases or always
 * PostgreSQL (they ran in the first pass), and the crash test, whose subject is SQLite's durability.
 */
const databaseScope = process.env.ATTESTLY_TEST_SCOPE === 'database';

/** Files that open PostgreSQL (and SQLite) themselves, whatever TEST_DATABASE_URL names: one pass is enough. */
const bothDatabasesAlways = [
  'apps/api/test/scale-out.test.ts',
  'apps/api/test/backup-restore.test.ts',
  'cli/test/backup-roundtrip.test.ts',
];
/** Process-level tests of the embedded database's durability. */
const sqliteProcessLevel = ['apps/api/test/durability-crash.test.ts'];

/**
 * Files that need a module graph of their own: they patch process-wide objects (the network guard wraps `net`,
 * `dns` and worker creation) or mock modules. Every other API file shares its worker's module graph
 * (isolate: false), which halves the suite's CPU: evaluating the server's modules for each file cost more than
 * most files' tests.
 */
const apiIsolated = [
  'apps/api/test/verification-privacy.test.ts',
  'apps/api/test/jobs-verification-media.test.ts',
];
const webIsolated = ['src/lib/toast.test.ts', 'src/features/backoffice/tokens-audit.test.tsx'];
const apiFiles = ['apps/api/**/*.test.ts', 'apps/contracts/**/*.test.ts'];
const notInDatabaseScope = databaseScope ? [...bothDatabasesAlways, ...sqliteProcessLevel] : [];

const projects: TestProjectConfiguration[] = [
  {
    test: {
      name: 'api',
      include: apiFiles,
      exclude: ['**/node_modules/**', ...apiIsolated, ...notInDatabaseScope],
      // Rebuilds the server bundle that the process-level tests start (server-process.ts).
      globalSetup: ['apps/api/test/global-setup.ts'],
      isolate: false,
      environment: 'node',
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  },
  {
    test: {
      name: 'api-isolated',
      include: apiIsolated,
      environment: 'node',
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  },
  {
    test: {
      // The attestly command, run as a subprocess from its bundle (built once by the global setup).
      name: 'cli',
      include: ['cli/**/*.test.{ts,tsx}'],
      exclude: ['**/node_modules/**', ...notInDatabaseScope],
      environment: 'node',
      // The server bundle that `attestly serve` runs, then the CLI's own.
      globalSetup: ['apps/api/test/global-setup.ts', 'cli/test/global-setup.ts'],
      // Each test starts several processes (each loads the server's modules): generous on a busy machine.
      testTimeout: 300_000,
      hookTimeout: 300_000,
    },
  },
  {
    test: {
      name: 'models',
      include: ['models/**/*.test.ts'],
      environment: 'node',
      testTimeout: 120_000,
      hookTimeout: 180_000,
    },
  },
  // Component tests on jsdom. The same sharing as the API's, except for files with fake timers or module state
  // that a test drives from a known start (the toast store).
  {
    ...componentTests,
    test: { ...componentTests.test, isolate: false, exclude: ['**/node_modules/**', ...webIsolated] },
  },
  { ...componentTests, test: { ...componentTests.test, name: 'web-isolated', include: webIsolated } },
  // Browser tests (Debian's Chromium against the built app and the real API); see apps/web/e2e.
  './apps/web/e2e/vitest.config.ts',
];

/** In the database scope: the API and CLI tests, and the browser journeys on TEST_DATABASE_URL (e2e config). */
function dependsOnDatabase(project: TestProjectConfiguration): boolean {
  if (typeof project === 'string') return project.includes('/e2e/');
  const name = 'test' in project ? project.test?.name : undefined;
  return name === 'api' || name === 'api-isolated' || name === 'cli';
}

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, which then idles while a file
    // waits on child processes, Chromium or timers. On SQLite one more worker than cores fills those waits: the
    // whole suite took 452 s instead of 513 s on a quiet 2-core machine from a clean clone (2026-11-27). On
    // PostgreSQL the database server already takes the idle time of the same cores, and a third worker made CI's
    // database pass slower (360 s against 323 s, same clone, same hour), so that pass keeps one per core. The
    // browser journeys share this setting (a project with its own maxWorkers would need a group of its own and would
    // then run after everything else).
    maxWorkers: os.availableParallelism() + (databaseScope ? 0 : 1),
    projects: databaseScope ? projects.filter(dependsOnDatabase) : projects,
  },
});

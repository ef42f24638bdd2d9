import { defineConfig } from 'vitest/config';

/**
 * One `vitest run` for the whole repository. API tests boot the real app on a fresh SQLite database per file, or
 * on a throwaway PostgreSQL database per file when TEST_DATABASE_URL is a postgres:// URL (see .ci/run).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'api',
          include: ['apps/api/**/*.test.ts', 'apps/contracts/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
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
      {
        test: {
          // The attestly command, run as a subprocess from its bundle (built once by the global setup).
          name: 'cli',
          include: ['cli/**/*.test.{ts,tsx}'],
          environment: 'node',
          globalSetup: ['cli/test/global-setup.ts'],
          // Each test starts several processes (each loads the server's modules): generous on a busy machine.
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
      './apps/web/vitest.config.ts',
      // Browser tests (Debian's Chromium against the built app and the real API); see apps/web/e2e.
      './apps/web/e2e/vitest.config.ts',
    ],
  },
});

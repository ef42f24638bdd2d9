import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

const root = path.dirname(fileURLToPath(import.meta.url));

/**
 * Browser tests: Debian's Chromium (never a downloaded browser) driven by playwright-core against the built SPA
 * served by the real API on a fresh SQLite database. Files run side by side (as many as the root config's
 * maxWorkers) and with the other projects' files: each launches its own browser, and each browser context has its
 * own client address (X-Forwarded-For), accounts and mailbox, so files do not share state.
 */
export default defineProject({
  root,
  test: {
    name: 'web-e2e',
    // ATTESTLY_TEST_SCOPE=database (CI's PostgreSQL pass, see the root vitest.config.ts): only the journeys whose
    // server runs on TEST_DATABASE_URL; the others use global-setup's own SQLite server and ran in the first pass.
    include:
      process.env.ATTESTLY_TEST_SCOPE === 'database'
        ? ['backoffice.e2e.test.ts', 'screenshots.e2e.test.ts']
        : ['**/*.e2e.test.ts'],
    environment: 'node',
    globalSetup: ['./global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});

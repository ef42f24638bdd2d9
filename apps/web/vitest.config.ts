import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

const root = path.dirname(fileURLToPath(import.meta.url));

/**
 * Component tests (Vitest + Testing Library on jsdom). Browser tests are the separate `web-e2e` project. The root
 * vitest.config.ts builds its two component-test projects (shared and isolated module graphs) from this one.
 */
export const componentTests = {
  root,
  plugins: [
    // Keeps src/routeTree.gen.ts current for tests that mount the real route tree.
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: false,
      routesDirectory: path.join(root, 'src/routes'),
      generatedRouteTree: path.join(root, 'src/routeTree.gen.ts'),
      quoteStyle: 'single',
    }),
    react(),
  ],
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    testTimeout: 15_000,
  },
} satisfies UserWorkspaceConfig;

export default defineProject(componentTests);

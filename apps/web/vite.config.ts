import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = path.dirname(fileURLToPath(import.meta.url));
/** The API the dev server proxies to (`npm start` listens on 8080). */
const apiTarget = process.env.ATTESTLY_DEV_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  root,
  plugins: [
    // Must come before the React plugin: it generates src/routeTree.gen.ts and splits every route's
    // component into its own chunk, so each area of the app loads only what it shows.
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: path.join(root, 'src/routes'),
      generatedRouteTree: path.join(root, 'src/routeTree.gen.ts'),
      // A route's component test sits beside it; it is not a route.
      routeFileIgnorePattern: '\\.test\\.tsx?$',
      quoteStyle: 'single',
    }),
    react(),
    tailwindcss(),
  ],
  build: {
    outDir: path.join(root, 'dist'),
    emptyOutDir: true,
    // The benchmark reads the manifest to size each route chunk.
    manifest: true,
    target: 'es2022',
    rolldownOptions: {
      treeshake: {
        // @attestly/contracts only declares schemas and constants, but its top-level valibot calls look like side
        // effects to the bundler; saying so keeps every schema the first page does not use out of its download.
        moduleSideEffects: (id: string) => !id.includes('/apps/contracts/src/'),
      },
    },
  },
  server: {
    proxy: Object.fromEntries(
      ['/api', '/oauth2', '/readyz', '/healthz'].map((prefix) => [prefix, apiTarget]),
    ),
  },
});

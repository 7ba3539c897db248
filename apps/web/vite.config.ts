/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { brotliCopies } from './brotli-copies';
import { routeHints } from './route-hints';
import { shellWorker } from './shell-worker';
import { SIGNED_IN_SHELL_MODULE, screenHints } from './src/screens/signed-in-screens';

const contracts = fileURLToPath(new URL('../../libs/contracts/src/index.ts', import.meta.url));

export default defineConfig({
  plugins: [react(), tailwindcss(), routeHints(SIGNED_IN_SHELL_MODULE, screenHints), shellWorker(), brotliCopies()],
  resolve: {
    alias: {
      '@vault/contracts': contracts,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // Two bundles: what the login screen needs (the entry and everything it imports
    // statically), and one chunk for everything behind the login, fetched at sign-in
    // or named in the page of a signed-in reload (route hints). Left to itself the
    // bundler made ten small shared chunks, each one more request for a screen.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'], priority: 2 },
            { name: 'signed-in', priority: 1, test: /[\\/]src[\\/](screens|components|lib)[\\/]|node_modules/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': {
        target: 'http://127.0.0.1:3000',
        changeOrigin: false,
      },
    },
  },
  preview: {
    proxy: {
      '/api': {
        target: 'http://127.0.0.1:3000',
        changeOrigin: false,
      },
    },
  },
  test: {
    environment: 'jsdom',
    // One jsdom per worker, not per file (15 s for the tier instead of 43): src/test/setup.ts resets
    // what the files share (the rendered tree, toasts, pending deletes, storage) after each test,
    // and no file mocks a module; shuffled orders pass the same.
    isolate: false,
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // A test that types and clicks through a screen takes about a second alone; on a machine
    // busy with the other tiers, 5 s (vitest's default) timed two of them out.
    testTimeout: 20_000,
    alias: {
      '@vault/contracts': contracts,
    },
  },
});

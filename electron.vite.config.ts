import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

/**
 * One build for every entry: the Electron main process, the `ragdesk` CLI and the embedding worker share
 * out/main (npm dependencies stay external and load from node_modules, but for the MCP SDK and zod); the preload
 * and the React renderer build separately. The renderer bundle is also what `ragdesk serve` hands to browsers.
 */
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // Bundled: `ragdesk mcp` loads the SDK (with ajv and zod-to-json-schema) and zod before it can answer
      // `tools/list`, ~190 modules resolved and compiled one by one from node_modules; in the chunks they come
      // with ragdesk's own. Spawn → tools/list (a raw JSON-RPC client, medians of 10, interleaved): 220-222 → 163-186 ms
      // quiet, 265-298 → 192-222 ms loaded (docs/benchmarks.md).
      externalizeDeps: { exclude: ['@modelcontextprotocol/sdk', 'zod'] },
      rollupOptions: {
        // Development-only tools used by `ragdesk bench` stay outside the bundle (loaded lazily when present).
        external: ['playwright-core'],
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          cli: resolve(__dirname, 'src/cli/index.ts'),
          'embed-worker': resolve(__dirname, 'src/core/embed/embed-worker.ts'),
          'parse-worker': resolve(__dirname, 'src/core/parse/pool/parse-worker.ts'),
          'analysis-worker': resolve(__dirname, 'src/core/services/analysis-worker.ts'),
        },
        output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload can require only `electron`: bundle the contract (and zod) into it.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      // The same bundle is served to browsers by `ragdesk serve`.
      minify: true,
      // One ~750 kB script (React + Mantine + the app) loaded from disk or loopback, never over a network:
      // splitting it would add requests without making anything faster.
      chunkSizeWarningLimit: 1024,
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
  },
});

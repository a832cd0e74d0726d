import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { initialBundleBudget } from './build/initial-bundle-budget.ts';

// The service serves web/dist under `-web`; `npm run dev` proxies the API to a local service.
export default defineConfig({
  // The build prints the initial JS (gzip) and fails over 250 KiB: pages, editor and terminal load on demand.
  plugins: [react(), initialBundleBudget()],
  // The shared locale catalogue (web UI and terminal UI) lives at the repository root.
  resolve: { alias: { '@locales': fileURLToPath(new URL('../locales', import.meta.url)) } },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 600 },
  server: { proxy: { '/api': { target: process.env.PILOTHOUSE_URL ?? 'http://127.0.0.1:8080', changeOrigin: true } } },
  test: { include: ['src/**/*.test.ts'], environment: 'node', isolate: false, maxWorkers: 1 },
});

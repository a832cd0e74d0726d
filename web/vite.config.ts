import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// The service serves web/dist under `-web`; `npm run dev` proxies the API to a local service.
export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 600 },
  server: { proxy: { '/api': { target: process.env.PILOTHOUSE_URL ?? 'http://127.0.0.1:8080', changeOrigin: true } } },
  test: { include: ['src/**/*.test.ts'], environment: 'node', isolate: false, maxWorkers: 1 },
});

import { defineConfig } from 'vitest/config';

// Two projects: fast unit tests beside the sources, and integration tests
// (test/e2e) that share one real cluster started by test/helpers/global-setup.ts.
export default defineConfig({
  test: {
    teardownTimeout: 60_000,
    // undici's pool, destroyed when a test service closes, hands ClientDestroyedError to a request a test-made
    // CacheManager (resources.test.ts, cache bounds) left on the service's pool; every other unhandled error fails the run.
    onUnhandledError: (error) => (error as { code?: string }).code !== 'UND_ERR_DESTROYED',
    reporters: process.env.CI ? ['default', 'junit'] : ['default'],
    outputFile: { junit: '.cache/junit.xml' },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/unit/**/*.test.ts'],
          environment: 'node',
          // Some unit tests start real processes (kubectl, bwrap, MCP servers) while the e2e project runs beside them.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/helpers/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 240_000,
          fileParallelism: true,
          maxWorkers: 2,
        },
      },
      {
        test: {
          // The chart on a real node (make test-node sets NODE_KUBECONFIG after make cluster-node):
          // left out of the default run, serial (one real node per machine).
          name: 'node',
          include: process.env.NODE_KUBECONFIG ? ['test/node/**/*.test.ts'] : [],
          environment: 'node',
          testTimeout: 360_000,
          hookTimeout: 240_000,
          fileParallelism: false,
          maxWorkers: 1,
        },
      },
    ],
  },
});

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, inject } from 'vitest';
import { runKubectl, tryKubectl } from './kubectl.js';

/** The kubeconfig of the shared test cluster (admin). */
export function clusterKubeconfig(): string {
  return inject('kubeconfig');
}

/** A fresh namespace name: `<prefix>-<random>`. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(3).toString('hex')}`;
}

/**
 * Gives the test file its own namespace, created before and deleted after
 * (each test file works in its own namespace on the shared cluster).
 */
export function useNamespace(prefix: string): { readonly name: string } {
  const holder = { name: uniqueName(prefix) };
  beforeAll(async () => {
    await runKubectl(clusterKubeconfig(), ['create', 'namespace', holder.name]);
    await waitFor(async () => (await tryKubectl(clusterKubeconfig(), ['get', 'serviceaccount', 'default', '-n', holder.name])).code === 0);
  });
  afterAll(async () => {
    await tryKubectl(clusterKubeconfig(), ['delete', 'namespace', holder.name, '--wait=false']);
  });
  return holder;
}

/** Polls `check` until it returns true (default 30 s). Tests wait for behaviour, never assert wall-clock time. */
export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 30_000, intervalMs = 200): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

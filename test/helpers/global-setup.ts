import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { rootDirectory } from './paths.js';
import { startCluster } from './test-cluster.js';
import { runKubectl } from './kubectl.js';

declare module 'vitest' {
  export interface ProvidedContext {
    kubeconfig: string;
  }
}

/** Installs the project's CRDs so every test sees them (the service also installs them at start). */
async function installCrds(kubeconfig: string): Promise<void> {
  const crdDirectory = join(rootDirectory, 'crds');
  const files = readdirSync(crdDirectory).filter((file) => file.endsWith('.yaml'));
  if (files.length === 0) return;
  await runKubectl(kubeconfig, ['apply', '--server-side', '--force-conflicts', '-f', crdDirectory]);
  await runKubectl(kubeconfig, ['wait', '--for=condition=Established', '--timeout=60s', 'crd', '-l', 'app.kubernetes.io/part-of=pilothouse']);
}

/**
 * One real cluster for the whole e2e run: E2E_KUBECONFIG when set (e.g. a kind cluster),
 * otherwise our own test/cluster harness (kube-apiserver + etcd + KWOK) started here.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.E2E_KUBECONFIG;
  if (external) {
    await installCrds(external);
    project.provide('kubeconfig', external);
    return async () => undefined;
  }
  const directory = mkdtempSync(join(tmpdir(), 'pilothouse-cluster-'));
  const cluster = await startCluster(directory);
  await installCrds(cluster.kubeconfig);
  project.provide('kubeconfig', cluster.kubeconfig);
  return async () => {
    await cluster.stop();
    rmSync(directory, { recursive: true, force: true });
  };
}

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { TestProject } from 'vitest/node';
import { rootDirectory, toolPath } from './paths.js';
import { runKubectl } from './kubectl.js';

declare module 'vitest' {
  export interface ProvidedContext {
    kubeconfig: string;
  }
}

/** Starts `testcluster up` and resolves with the kubeconfig path once it prints its ready line. */
function startCluster(directory: string): Promise<{ child: ChildProcess; kubeconfig: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(toolPath('testcluster'), ['up', '--dir', directory, '--nodes', '2'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const timer = setTimeout(() => reject(new Error('test cluster not ready within 240s')), 240_000);
    child.once('exit', (code) => reject(new Error(`testcluster exited early with code ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^ready kubeconfig=(.+)$/.exec(line);
      if (!match?.[1]) return;
      clearTimeout(timer);
      resolve({ child, kubeconfig: match[1] });
    });
  });
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
  const { child, kubeconfig } = await startCluster(directory);
  await installCrds(kubeconfig);
  project.provide('kubeconfig', kubeconfig);
  return async () => {
    child.removeAllListeners('exit');
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(directory, { recursive: true, force: true });
  };
}

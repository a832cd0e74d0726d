import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { toolPath } from './paths.js';

/** A running `testcluster up` (kube-apiserver + etcd + KWOK nodes). */
export interface TestCluster {
  child: ChildProcess;
  kubeconfig: string;
  /** SIGTERM, then SIGKILL when it has not exited within 20 s. */
  stop(): Promise<void>;
}

async function stopCluster(child: ChildProcess): Promise<void> {
  child.removeAllListeners('exit');
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** Starts `testcluster up` in `directory` and resolves once it prints its `ready kubeconfig=...` line. */
export function startCluster(directory: string, nodes = 2): Promise<TestCluster> {
  return new Promise((resolve, reject) => {
    const child = spawn(toolPath('testcluster'), ['up', '--dir', directory, '--nodes', String(nodes)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const timer = setTimeout(() => {
      void stopCluster(child);
      reject(new Error('test cluster not ready within 240s'));
    }, 240_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`testcluster exited early with code ${code}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^ready kubeconfig=(.+)$/.exec(line);
      if (!match?.[1]) return;
      clearTimeout(timer);
      resolve({ child, kubeconfig: match[1], stop: () => stopCluster(child) });
    });
  });
}

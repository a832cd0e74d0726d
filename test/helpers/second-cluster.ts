import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as yaml from 'js-yaml';
import { afterAll, beforeAll } from 'vitest';
import { waitFor } from './cluster.js';
import { startCluster, type TestCluster } from './test-cluster.js';

/** One more real cluster (kube-apiserver + etcd + KWOK) beside the shared one, for one test file. */
export interface SecondCluster {
  /** Its state folder (removed by `stop`). */
  readonly directory: string;
  /** Path of its admin kubeconfig (server, CA and bearer token inline: usable as a cluster Secret as is). */
  readonly kubeconfig: string;
  /** The kubeconfig's text. */
  readonly kubeconfigText: string;
  /** The API server's URL, `https://127.0.0.1:PORT`. */
  readonly server: string;
  /**
   * Kills the cluster mid-test (default SIGKILL: no clean shutdown; its components follow by their death signal)
   * and resolves once its API server port refuses connections.
   */
  kill(signal?: 'SIGKILL' | 'SIGTERM'): Promise<void>;
  /** Stops it (if still running), ends any of its processes left, and removes its folder. Idempotent. */
  stop(): Promise<void>;
}

/** Whether something accepts TCP connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The processes whose command line names `directory` (the cluster's components): pids. */
function processesOf(directory: string): number[] {
  return readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) return [];
    try {
      return readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(directory) ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

/** Ends, by pid, whatever of the cluster is left (a component whose parent was SIGKILLed before it could reap it). */
async function endLeftovers(directory: string): Promise<void> {
  for (const pid of processesOf(directory)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await waitFor(() => processesOf(directory).length === 0, 20_000);
}

function exited(cluster: TestCluster): Promise<void> {
  const child = cluster.child;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts a second real cluster with `nodes` KWOK nodes (default 1) in a fresh temp folder (~15 s). */
export async function startSecondCluster(nodes = 1): Promise<SecondCluster> {
  const directory = mkdtempSync(join(tmpdir(), 'pilothouse-second-cluster-'));
  let cluster: TestCluster;
  try {
    cluster = await startCluster(directory, nodes);
  } catch (error) {
    await endLeftovers(directory);
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  const kubeconfigText = readFileSync(cluster.kubeconfig, 'utf8');
  const document = yaml.load(kubeconfigText) as { clusters: { cluster: { server: string } }[] };
  const server = document.clusters[0]!.cluster.server;
  const port = Number(new URL(server).port);
  let stopped = false;
  return {
    directory,
    kubeconfig: cluster.kubeconfig,
    kubeconfigText,
    server,
    async kill(signal = 'SIGKILL') {
      cluster.child.kill(signal);
      await exited(cluster);
      if (signal === 'SIGKILL') await endLeftovers(directory);
      await waitFor(async () => !(await listening(port)), 30_000);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await cluster.stop();
      await endLeftovers(directory);
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * A second real cluster for the test file: started once in `beforeAll`, always stopped in `afterAll` (folder
 * removed, no process left). Read `.current` inside tests and hooks.
 */
export function useSecondCluster(nodes = 1): { readonly current: SecondCluster } {
  let cluster: SecondCluster | undefined;
  beforeAll(async () => {
    cluster = await startSecondCluster(nodes);
  });
  afterAll(async () => {
    await cluster?.stop();
  });
  return {
    get current(): SecondCluster {
      if (!cluster) throw new Error('the second cluster is not started (use it inside tests or hooks)');
      return cluster;
    },
  };
}

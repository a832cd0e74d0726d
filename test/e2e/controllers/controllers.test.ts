import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { ControllerManager } from '../../../src/controllers/manager.js';
import { ensureCrds } from '../../../src/controllers/crd-installer.js';
import { KubeClients, loadKubeConfig } from '../../../src/kube/clients.js';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';

const namespace = useNamespace('lease');
const logger = pino({ level: 'silent' });
const managers: ControllerManager[] = [];

afterAll(async () => {
  await Promise.all(managers.map((manager) => manager.stop()));
});

/** The holders named by "lease held by another replica" in one log line. */
function heldMessages(line: string): string[] {
  const entry = JSON.parse(line) as { msg?: string; holder?: string };
  return entry.msg === 'lease held by another replica' && entry.holder ? [entry.holder] : [];
}

function counter(): { started: number; stopped: number; start(): void; stop(): void } {
  return {
    started: 0,
    stopped: 0,
    start() {
      this.started += 1;
    },
    stop() {
      this.stopped += 1;
    },
  };
}

describe('leader election with a Lease', () => {
  it('lets exactly one replica run controllers and hands over when it stops', async () => {
    const kubeconfigPath = clusterKubeconfig();
    const clients = new KubeClients(loadKubeConfig({ kubeconfigPath }), { kubeconfigPath });
    const rest = clients.forIdentity(undefined).rest;
    const first = new ControllerManager(rest, logger, { namespace: namespace.name, leaderElection: true });
    // The second replica's log says each time it found the lease held by another.
    const heldBy: string[] = [];
    const secondLogger = pino({ level: 'debug' }, { write: (line: string) => void heldBy.push(...heldMessages(line)) });
    const second = new ControllerManager(rest, secondLogger, { namespace: namespace.name, leaderElection: true });
    managers.push(first, second);
    const firstRunnable = counter();
    const secondRunnable = counter();
    first.register(firstRunnable);
    second.register(secondRunnable);
    first.start();
    await waitFor(() => first.isLeader);
    second.start();
    // Two attempts (the first at once, one a retry period later), both refused while the first replica renews.
    await waitFor(() => heldBy.length >= 2, 20_000);
    expect(new Set(heldBy).size).toBe(1);
    expect(second.isLeader).toBe(false);
    expect(secondRunnable.started).toBe(0);
    const lease = JSON.parse(await runKubectl(kubeconfigPath, ['get', 'lease', 'pilothouse-controller', '-n', namespace.name, '-o', 'json']));
    expect(lease.spec.holderIdentity).toBe(heldBy[0]);

    await first.stop();
    expect(firstRunnable.stopped).toBe(1);
    await waitFor(() => second.isLeader, 20_000);
    expect(secondRunnable.started).toBe(1);
  });
});

describe('custom resource definitions', () => {
  it('are installed with schemas kubectl explain can read and printer columns', async () => {
    const kubeconfigPath = clusterKubeconfig();
    for (const kind of ['accessrequest', 'portforwards.pilothouse.dev', 'report', 'mcpserver']) {
      const text = await runKubectl(kubeconfigPath, ['explain', `${kind}.spec`]);
      expect(text, kind).toContain('GROUP:      pilothouse.dev');
    }
    const explained = await runKubectl(kubeconfigPath, ['explain', 'accessrequest.spec.ttl']);
    expect(explained).toMatch(/How long the access lasts/);
    await applyYaml(
      kubeconfigPath,
      `apiVersion: pilothouse.dev/v1alpha1\nkind: MCPServer\nmetadata: {name: shown}\nspec: {command: /bin/true, enabled: false}\n`,
      namespace.name,
    );
    const table = await runKubectl(kubeconfigPath, ['get', 'mcps', '-n', namespace.name]);
    expect(table).toMatch(/^NAME\s+COMMAND\s+ENABLED\s+PHASE\s+RESTARTS\s+AGE$/m);
    expect(table).toMatch(/^shown\s+\/bin\/true\s+false/m);
  });
});

describe('CRD installation at start', () => {
  it('updates the CRDs with rights, and says how to install them without', async () => {
    const kubeconfigPath = clusterKubeconfig();
    const admin = new KubeClients(loadKubeConfig({ kubeconfigPath }), { kubeconfigPath });
    expect(await ensureCrds(admin.forIdentity(undefined).rest, logger)).toBe(true);

    await runKubectl(kubeconfigPath, ['create', 'serviceaccount', 'no-crd-rights', '-n', namespace.name]);
    const lines: string[] = [];
    const captured = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
    const limited = admin.forIdentity(`system:serviceaccount:${namespace.name}:no-crd-rights`);
    expect(await ensureCrds(limited.rest, captured)).toBe(false);
    expect(lines.join('')).toContain('kubectl apply -f crds/');
  });
});

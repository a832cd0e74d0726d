import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chat, type ChatEvent } from '../../helpers/chat-stream.js';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { rootDirectory } from '../../helpers/paths.js';
import { startTestService, type TestService } from '../../helpers/service.js';

/**
 * GitOps (issue 35) with Argo CD's and Flux's own CRDs (`make gitops-crds` copies them from their Go modules into
 * .tools/crds/gitops): an out-of-sync, degraded Application and a not-ready Kustomization and a stalled HelmRelease
 * are findings; a Deployment Argo CD manages is named on the approval card of a scripted chat's `kubectl scale`.
 */
const namespace = useNamespace('gitops');
const crdFolder = join(rootDirectory, '.tools', 'crds', 'gitops');
const crdFiles = ['argocd-application.yaml', 'flux-kustomization.yaml', 'flux-helmrelease.yaml'];
const crdNames = ['applications.argoproj.io', 'kustomizations.kustomize.toolkit.fluxcd.io', 'helmreleases.helm.toolkit.fluxcd.io'];
let service: TestService;
let wire: LlmWireServer;

interface Finding {
  cluster: string;
  analyzer: string;
  severity: string;
  object: { kind: string; namespace?: string; name: string };
  reason: string;
  message: string;
  evidence: string[];
}

const kubectl = (...args: string[]): Promise<string> => runKubectl(clusterKubeconfig(), args);
const apply = (yaml: string): Promise<string> => applyYaml(clusterKubeconfig(), yaml, namespace.name);

async function findingsOf(kind: string): Promise<Finding[]> {
  const response = await service.api<{ items: Finding[] }>('GET', `/api/problems?namespace=${namespace.name}&kind=${kind}`, { token: service.adminToken });
  expect(response.status, response.text).toBe(200);
  return response.body.items;
}

async function waitForFinding(kind: string, name: string, reason: string): Promise<Finding> {
  let found: Finding | undefined;
  await waitFor(async () => (found = (await findingsOf(kind)).find((item) => item.object.name === name && item.reason === reason)) !== undefined, 60_000);
  return found!;
}

/** A Flux Ready/Stalled condition as the controllers write them (metav1.Condition). */
const condition = (type: string, status: string, reason: string, message: string): object => ({
  type,
  status,
  reason,
  message,
  lastTransitionTime: '2026-01-01T00:00:00Z',
  observedGeneration: 1,
});

async function setFluxStatus(resource: string, name: string, conditions: object[]): Promise<void> {
  const status = JSON.stringify({ status: { conditions, lastAttemptedRevision: 'main@sha1:0123abcd' } });
  await kubectl('patch', resource, name, '-n', namespace.name, '--subresource=status', '--type=merge', '-p', status);
}

beforeAll(async () => {
  for (const file of crdFiles) {
    if (!existsSync(join(crdFolder, file))) throw new Error(`${join(crdFolder, file)} is missing: run make gitops-crds (part of make tools)`);
    // Server-side: Argo CD's CRD is too big for the last-applied annotation of a client-side apply.
    await kubectl('apply', '--server-side', '--force-conflicts', '-f', join(crdFolder, file));
  }
  await kubectl('wait', '--for=condition=Established', '--timeout=60s', ...crdNames.map((name) => `crd/${name}`));
  // Discovery serves the new kinds before the service starts: their watches start with the engine.
  await waitFor(
    async () => (await tryKubectl(clusterKubeconfig(), ['get', 'applications,kustomizations,helmreleases', '-n', namespace.name])).code === 0,
    30_000,
  );
  wire = await startLlmWireServer();
  service = await startTestService({
    config: { llm: { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-gitops', max_retries: 0 } } as never,
  });
}, 180_000);

afterAll(async () => {
  await service?.close();
  await wire?.close();
  await tryKubectl(clusterKubeconfig(), ['delete', 'crd', ...crdNames, '--ignore-not-found', '--wait=false']);
});

describe('GitOps problems and ownership (real Argo CD and Flux CRDs)', () => {
  it('finds an out-of-sync, degraded Argo CD Application with the resources that differ', async () => {
    // Argo CD's Application has no status subresource: its controller writes status with the object.
    await apply(`apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: shop}
spec:
  project: default
  source: {repoURL: 'https://git.example/shop.git', path: deploy, targetRevision: main}
  destination: {server: 'https://kubernetes.default.svc', namespace: ${namespace.name}}
status:
  sync: {status: OutOfSync, revision: 0123abcd}
  health: {status: Degraded, message: 'Deployment "web" has timed out progressing.'}
  resources:
  - {group: apps, version: v1, kind: Deployment, namespace: ${namespace.name}, name: web, status: OutOfSync}
  - {version: v1, kind: Service, namespace: ${namespace.name}, name: web, status: Synced}`);
    const outOfSync = await waitForFinding('Application', 'shop', 'OutOfSync');
    expect(outOfSync).toMatchObject({ cluster: 'home', analyzer: 'application', severity: 'warning' });
    expect(outOfSync.message).toContain('Deployment/web');
    expect(outOfSync.evidence).toContain('status.sync.revision: 0123abcd');
    const degraded = await waitForFinding('Application', 'shop', 'Degraded');
    expect(degraded).toMatchObject({ severity: 'critical' });
    expect(degraded.message).toContain('has timed out progressing');
  });

  it("finds a not-ready Kustomization with Flux's reason and message, and a stalled HelmRelease", async () => {
    await apply(`apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: apps}
spec: {interval: 10m, prune: true, path: ./apps, sourceRef: {kind: GitRepository, name: fleet}}`);
    await apply(`apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: redis}
spec:
  interval: 10m
  chart: {spec: {chart: redis, sourceRef: {kind: HelmRepository, name: charts}}}`);
    await setFluxStatus('kustomization', 'apps', [condition('Ready', 'False', 'BuildFailed', 'kustomization path not found: ./apps')]);
    await setFluxStatus('helmrelease', 'redis', [
      condition('Ready', 'False', 'InstallFailed', 'Helm install failed for release redis'),
      condition('Stalled', 'True', 'RetriesExceeded', 'Failed to install after 1 attempt(s)'),
    ]);
    const notReady = await waitForFinding('Kustomization', 'apps', 'NotReady');
    expect(notReady).toMatchObject({
      analyzer: 'kustomization',
      severity: 'warning',
      message: 'Not ready (BuildFailed): kustomization path not found: ./apps',
    });
    const stalled = await waitForFinding('HelmRelease', 'redis', 'Stalled');
    expect(stalled).toMatchObject({ analyzer: 'helmrelease', severity: 'critical' });
    expect(stalled.evidence[0]).toBe('status.conditions[Stalled]: True, reason RetriesExceeded, message Failed to install after 1 attempt(s)');

    // Fixed: Flux reports Ready, and the finding goes away.
    await setFluxStatus('kustomization', 'apps', [condition('Ready', 'True', 'ReconciliationSucceeded', 'Applied revision: main@sha1:0123abcd')]);
    await waitFor(async () => (await findingsOf('Kustomization')).length === 0, 60_000);
  });

  it('says on the approval card that Argo CD reverts a manual scale of a Deployment it manages', async () => {
    await apply(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app.kubernetes.io/instance: shop}
  annotations: {argocd.argoproj.io/tracking-id: 'shop:apps/Deployment:${namespace.name}/web'}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: main, image: busybox}]}`);
    await apply(`apiVersion: apps/v1
kind: Deployment
metadata: {name: unmanaged}
spec:
  replicas: 1
  selector: {matchLabels: {app: unmanaged}}
  template:
    metadata: {labels: {app: unmanaged}}
    spec: {containers: [{name: main, image: busybox}]}`);
    const scale = (name: string, id: string) => ({
      name: 'kubectl',
      id,
      arguments: { command: `kubectl scale deployment/${name} -n ${namespace.name} --replicas=3` },
    });
    wire.script([{ toolCalls: [scale('web', 'call_managed'), scale('unmanaged', 'call_unmanaged')] }, { text: ['Left them as they are.'] }]);
    const reject = async (event: ChatEvent): Promise<void> => {
      if (event.event !== 'tool_request') return;
      await service.api('POST', '/api/tool/approve', { token: service.adminToken, body: { id: event.data.id, approved: false } });
    };
    const run = await chat(service, { message: 'scale web to 3', context: { namespace: namespace.name } }, { token: service.adminToken, onEvent: reject });
    const managed = run.nth('tool_request', 0);
    expect(managed).toMatchObject({ id: 'call_managed', requiresApproval: true });
    expect(managed.managedBy).toEqual([
      {
        object: { kind: 'Deployment', namespace: namespace.name, name: 'web' },
        manager: { controller: 'Argo CD', kind: 'Application', name: 'shop' },
        note: `A manual change to deployment/web -n ${namespace.name} will be reverted by Argo CD Application shop.`,
      },
    ]);
    expect(run.nth('tool_request', 1)).toMatchObject({ id: 'call_unmanaged', requiresApproval: true });
    expect(run.nth('tool_request', 1).managedBy).toBeUndefined();
    // The chat history keeps the note (a reloaded card shows it too).
    const sessionId = run.nth('session').session_id;
    const history = await service.api<{ messages: Array<{ toolCalls?: Array<{ id: string; managedBy?: unknown[] }> }> }>(
      'GET',
      `/api/chat/history?session_id=${sessionId}`,
      { token: service.adminToken },
    );
    const calls = history.body.messages.flatMap((message) => message.toolCalls ?? []);
    expect(calls.find((call) => call.id === 'call_managed')?.managedBy).toHaveLength(1);
    expect(await kubectl('get', 'deployment', 'web', '-n', namespace.name, '-o', 'jsonpath={.spec.replicas}')).toBe('1');
  });
});

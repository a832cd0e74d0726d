// How to run: `make bench` (or BENCH_REPORT_PODS=1000 to try one size; BENCH_KUBECONFIG for another
// cluster). Creates KWOK pods on the test cluster (10 namespaces, 5 Deployments each owning the pods,
// pods bound to the cluster's nodes; a mix of `:latest`, untrusted and digest-pinned images, a few
// privileged pods, NetworkPolicies in half the namespaces), then generates each report type as an
// admin the way the service does (same generators and deps) and prints time, peak RSS and heap
// growth, findings and JSON size. Tears everything down. Never part of the tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../src/config/load.js';
import { KubeClients, loadKubeConfig } from '../src/kube/clients.js';
import { Discovery } from '../src/kube/discovery.js';
import { HelmInvocations } from '../src/helm/helm-invocations.js';
import { RoleIdentityResolver } from '../src/clusters/identities.js';
import { PolicyEngine } from '../src/rbac/policy-engine.js';
import type { ReportDocument, ReportGenerator } from '../src/reports/document/document.js';
import { createGenerators } from '../src/reports/generators.js';
import { findBinary } from '../src/tools/binaries.js';
import { inParallel } from './helpers.js';

const root = new URL('..', import.meta.url).pathname;
const kubeconfig = process.env.BENCH_KUBECONFIG ?? join(root, '.cluster', 'kubeconfig');
const sizes = (process.env.BENCH_REPORT_PODS ?? '10000').split(',').map(Number);
const namespaces = Array.from({ length: 10 }, (_, index) => `reports-${process.pid}-${index}`);
const deploymentsPerNamespace = 5;
const kube = new KubeClients(loadKubeConfig({ kubeconfigPath: kubeconfig }), { kubeconfigPath: kubeconfig });
const rest = kube.forIdentity().rest;
const images = [
  'registry.k8s.io/pause:3.10',
  'nginx:latest',
  'ghcr.io/acme/api:2.1.0',
  'registry.k8s.io/pause:3.10@sha256:ee6521f290b2168b6e0935a181d4cff9be1ac3f505666ef0e3c98fae8199917a',
];

interface Owner {
  namespace: string;
  name: string;
  uid: string;
}

/** Namespaces, Deployments with no replicas of their own (the pods below name them as controller), and NetworkPolicies. */
async function prepare(): Promise<Owner[]> {
  const owners: Owner[] = [];
  for (const [index, namespace] of namespaces.entries()) {
    await rest.json('POST', '/api/v1/namespaces', { body: { metadata: { name: namespace } } });
    if (index % 2 === 0)
      await rest.json('POST', `/apis/networking.k8s.io/v1/namespaces/${namespace}/networkpolicies`, {
        body: { metadata: { name: 'web-only' }, spec: { podSelector: { matchLabels: { tier: 'web' } }, ingress: [{}] } },
      });
    for (let number = 0; number < deploymentsPerNamespace; number += 1) {
      const name = `app-${number}`;
      const body = {
        metadata: { name },
        spec: {
          replicas: 0,
          selector: { matchLabels: { app: name } },
          template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: images[0] }] } },
        },
      };
      const created = await rest.json<{ metadata: { uid: string } }>('POST', `/apis/apps/v1/namespaces/${namespace}/deployments`, { body });
      owners.push({ namespace, name, uid: created.metadata.uid });
    }
  }
  return owners;
}

async function growTo(total: number, existing: number, owners: Owner[], nodes: string[]): Promise<void> {
  await inParallel(total - existing, 16, async (offset) => {
    const index = existing + offset;
    const owner = owners[index % owners.length]!;
    await rest.json('POST', `/api/v1/namespaces/${owner.namespace}/pods`, {
      body: {
        metadata: {
          name: `${owner.name}-${index}`,
          labels: { app: owner.name, tier: index % 3 === 0 ? 'web' : 'batch' },
          ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: owner.name, uid: owner.uid, controller: true }],
        },
        spec: {
          nodeName: nodes[index % nodes.length],
          containers: [{ name: 'app', image: images[index % images.length], securityContext: { privileged: index % 100 === 0 } }],
        },
      },
    });
  });
}

/** Waits (up to 5 minutes) until KWOK has moved every pod past Pending: the reports measure a settled cluster. */
async function settle(): Promise<void> {
  for (let attempt = 0; attempt < 150; attempt += 1) {
    const pending = await rest.json<{ items: unknown[] }>('GET', '/api/v1/pods', { query: { fieldSelector: 'status.phase=Pending', limit: 1 } });
    if (pending.items.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

function generators(): ReportGenerator[] {
  const config = parseConfig({}, process.env, 'bench');
  const discovery = new Discovery(rest);
  const identities = new RoleIdentityResolver(config, kube, findBinary('kubectl'));
  const policy = new PolicyEngine({ definitions: [], ownNamespace: 'pilothouse', resourceTypes: () => discovery.all(), grantCheck: () => false });
  const helm = new HelmInvocations(identities, { helmPath: () => findBinary('helm'), homeDirectory: helmHome, timeoutMs: 120_000 });
  return createGenerators({
    clusterName: 'bench',
    identities,
    policy,
    ownClient: kube.forIdentity(),
    helm,
    trustedRegistries: ['registry.k8s.io'],
    clock: Date.now,
  });
}

const helmHome = mkdtempSync(join(tmpdir(), 'pilothouse-bench-helm-'));

interface Measure {
  seconds: number;
  rssBeforeMiB: number;
  slowestStep: string;
  peakRssMiB: number;
  heapGrowthMiB: number;
  findings: number;
  jsonMiB: number;
  unavailable: string[];
}

async function measure(generator: ReportGenerator): Promise<Measure> {
  const mib = (bytes: number): number => bytes / 2 ** 20;
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 20);
  const started = performance.now();
  const steps: Array<{ step: string; at: number }> = [];
  const admin = { username: 'bench', role: 'admin' as const, roles: [] };
  const progress = (_percent: number, step: string): void => void steps.push({ step, at: performance.now() });
  const document: ReportDocument = await generator.generate({ principal: admin, progress, signal: new AbortController().signal });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const durations = steps.slice(0, -1).map((entry, index) => ({ step: entry.step, seconds: ((steps[index + 1]?.at ?? entry.at) - entry.at) / 1000 }));
  const slowest = durations.sort((left, right) => right.seconds - left.seconds)[0];
  return {
    seconds,
    rssBeforeMiB: mib(before.rss),
    slowestStep: slowest ? `${slowest.step} ${slowest.seconds.toFixed(2)} s` : '',
    peakRssMiB: mib(peakRss),
    heapGrowthMiB: mib(peakHeap - before.heapUsed),
    findings: document.sections.reduce((total, section) => total + section.findings.length, 0),
    jsonMiB: mib(Buffer.byteLength(JSON.stringify(document))),
    unavailable: document.sections.filter((section) => section.status === 'unavailable').map((section) => section.id),
  };
}

async function main(): Promise<void> {
  const nodeList = await rest.json<{ items: Array<{ metadata: { name: string } }> }>('GET', '/api/v1/nodes');
  const nodes = nodeList.items.map((node) => node.metadata.name);
  const owners = await prepare();
  const list = generators();
  console.log('| pods | report | time | slowest step | RSS before → peak | heap growth | findings | JSON | unavailable sections |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  let existing = 0;
  try {
    for (const size of sizes) {
      await growTo(size, existing, owners, nodes);
      existing = size;
      await settle();
      for (const generator of list) {
        const result = await measure(generator);
        console.log(
          `| ${size.toLocaleString('en')} | ${generator.type} | ${result.seconds.toFixed(2)} s | ${result.slowestStep} | ${result.rssBeforeMiB.toFixed(0)} → ${result.peakRssMiB.toFixed(0)} MiB | ${result.heapGrowthMiB.toFixed(0)} MiB | ${result.findings} | ${result.jsonMiB.toFixed(1)} MiB | ${result.unavailable.join(', ') || 'none'} |`,
        );
      }
    }
  } finally {
    for (const namespace of namespaces) await rest.raw('DELETE', `/api/v1/namespaces/${namespace}`).catch(() => undefined);
    rmSync(helmHome, { recursive: true, force: true });
    await kube.close();
  }
}

await main();

import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { FindingObject, Severity } from '../../src/reports/document/document.js';
import { clusterKubeconfig, uniqueName, waitFor } from './cluster.js';
import { applyYaml, runKubectl, tryKubectl } from './kubectl.js';
import { rootDirectory } from './paths.js';

/** A finding every security assessment of the seeded cluster must contain. */
export interface ExpectedFinding {
  rule: string;
  severity: Severity;
  object: FindingObject;
}

/** What {@link seedReportFindings} created. */
export interface SeededFindings {
  /** Has pods and no NetworkPolicy: a cluster-admin ServiceAccount, a privileged pod, a `:latest` Deployment with CVEs. */
  openNamespace: string;
  /** Has an allow-all-ingress NetworkPolicy that selects `api` and not `worker`. */
  fencedNamespace: string;
  serviceAccount: string;
  clusterRoleBinding: string;
  /** A value of a Secret the `web` Deployment reads (env from secretKeyRef): it must never appear in a report. */
  secretValue: string;
  /** The findings of every kind, with the severity and object they must carry. */
  expected: ExpectedFinding[];
}

const vulnerabilityCrd = join(rootDirectory, 'test', 'fixtures', 'reports', 'vulnerabilityreports-crd.yaml');

function openNamespaceYaml(namespace: string, account: string, binding: string, secretValue: string): string {
  return `apiVersion: v1
kind: ServiceAccount
metadata: {name: ${account}, namespace: ${namespace}}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: ${binding}, labels: {pilothouse.dev/test: report-findings}}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects: [{kind: ServiceAccount, name: ${account}, namespace: ${namespace}}]
---
apiVersion: v1
kind: Secret
metadata: {name: app-credentials, namespace: ${namespace}}
stringData: {password: ${secretValue}}
---
apiVersion: v1
kind: Pod
metadata: {name: privileged, namespace: ${namespace}, labels: {app: privileged}}
spec:
  automountServiceAccountToken: false
  containers:
    - name: main
      image: registry.k8s.io/pause:3.10
      securityContext: {privileged: true}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ${namespace}}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: nginx:latest
          env:
            - name: PASSWORD
              valueFrom: {secretKeyRef: {name: app-credentials, key: password}}
---
apiVersion: aquasecurity.github.io/v1alpha1
kind: VulnerabilityReport
metadata:
  name: deployment-web-web
  namespace: ${namespace}
  labels:
    trivy-operator.resource.kind: Deployment
    trivy-operator.resource.name: web
    trivy-operator.resource.namespace: ${namespace}
    trivy-operator.container.name: web
report:
  artifact: {repository: library/nginx, tag: latest}
  registry: {server: index.docker.io}
  scanner: {name: Trivy, vendor: Aqua Security, version: 0.58.0}
  summary: {criticalCount: 2, highCount: 5, mediumCount: 7, lowCount: 11, unknownCount: 0, noneCount: 0}
  vulnerabilities: []
`;
}

function fencedNamespaceYaml(namespace: string): string {
  const pod = (name: string): string => `apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: ${namespace}, labels: {app: ${name}}}
spec:
  containers: [{name: main, image: "registry.k8s.io/pause:3.10"}]
`;
  return `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: allow-all-ingress, namespace: ${namespace}}
spec:
  podSelector: {matchLabels: {app: api}}
  policyTypes: [Ingress]
  ingress: [{}]
---
${pod('api')}---
${pod('worker')}`;
}

/**
 * Seeds the cluster with a finding of every kind the security assessment reports: a ClusterRoleBinding
 * of cluster-admin to a test ServiceAccount, a namespace with pods and no NetworkPolicy, a privileged
 * pod, a `:latest` image, a policy allowing all ingress and a pod it leaves out, and Trivy Operator's
 * VulnerabilityReport CRD with an object for the `:latest` Deployment. The CRD stays installed
 * (other test files may read it at the same time); {@link removeReportFindings} deletes the rest.
 */
export async function seedReportFindings(kubeconfig: string, prefix = 'rf'): Promise<SeededFindings> {
  const openNamespace = uniqueName(`${prefix}-open`);
  const fencedNamespace = uniqueName(`${prefix}-fenced`);
  const serviceAccount = 'builder';
  const clusterRoleBinding = uniqueName(`${prefix}-builder-admin`);
  const secretValue = `s3cret-${randomBytes(8).toString('hex')}`;
  await runKubectl(kubeconfig, ['apply', '--server-side', '-f', vulnerabilityCrd]);
  await runKubectl(kubeconfig, ['wait', '--for=condition=Established', '--timeout=60s', 'crd/vulnerabilityreports.aquasecurity.github.io']);
  for (const namespace of [openNamespace, fencedNamespace]) await runKubectl(kubeconfig, ['create', 'namespace', namespace]);
  await waitFor(async () => (await tryKubectl(kubeconfig, ['get', 'serviceaccount', 'default', '-n', openNamespace])).code === 0);
  await applyYaml(kubeconfig, openNamespaceYaml(openNamespace, serviceAccount, clusterRoleBinding, secretValue));
  await applyYaml(kubeconfig, fencedNamespaceYaml(fencedNamespace));
  await waitFor(async () => (await runKubectl(kubeconfig, ['get', 'pods', '-n', openNamespace, '-l', 'app=web', '-o', 'name'])).trim() !== '');
  const expected: ExpectedFinding[] = [
    { rule: 'rbac.cluster-admin-binding', severity: 'critical', object: { kind: 'ClusterRoleBinding', name: clusterRoleBinding } },
    { rule: 'network.namespace-without-policy', severity: 'medium', object: { kind: 'Namespace', name: openNamespace } },
    { rule: 'network.allow-all-ingress', severity: 'medium', object: { kind: 'NetworkPolicy', name: 'allow-all-ingress', namespace: fencedNamespace } },
    { rule: 'network.pod-not-selected', severity: 'low', object: { kind: 'Pod', name: 'worker', namespace: fencedNamespace } },
    { rule: 'cis.5.2.2', severity: 'critical', object: { kind: 'Pod', name: 'privileged', namespace: openNamespace } },
    { rule: 'pss.baseline', severity: 'high', object: { kind: 'Pod', name: 'privileged', namespace: openNamespace } },
    { rule: 'image.latest-tag', severity: 'high', object: { kind: 'Deployment', name: 'web', namespace: openNamespace } },
    { rule: 'vulnerability.critical-cves', severity: 'critical', object: { kind: 'Deployment', name: 'web', namespace: openNamespace } },
  ];
  return { openNamespace, fencedNamespace, serviceAccount, clusterRoleBinding, secretValue, expected };
}

/** Deletes what {@link seedReportFindings} created (the VulnerabilityReport CRD stays). */
export async function removeReportFindings(kubeconfig: string, seeded: SeededFindings): Promise<void> {
  await tryKubectl(kubeconfig, ['delete', 'clusterrolebinding', seeded.clusterRoleBinding, '--ignore-not-found']);
  for (const namespace of [seeded.openNamespace, seeded.fencedNamespace])
    await tryKubectl(kubeconfig, ['delete', 'namespace', namespace, '--wait=false', '--ignore-not-found']);
}

/** Seeds the findings before the test file's tests and removes them after (the shared test cluster). */
export function useReportFindings(prefix = 'rf'): { readonly current: SeededFindings } {
  const holder = {} as { current: SeededFindings };
  beforeAll(async () => {
    holder.current = await seedReportFindings(clusterKubeconfig(), prefix);
  }, 120_000);
  afterAll(async () => {
    if (holder.current) await removeReportFindings(clusterKubeconfig(), holder.current);
  });
  return holder;
}

/**
 * The roles the report tests give their users: `no-fenced` denies everything in the fenced namespace,
 * `no-metrics` denies the metrics API (so usage is unavailable).
 */
export function reportTestRoles(seeded: SeededFindings): { name: string; resources: string[]; namespaces: string[]; verbs: '*'[]; effect: 'deny' }[] {
  return [
    { name: 'no-fenced', resources: ['*'], namespaces: [seeded.fencedNamespace], verbs: ['*'], effect: 'deny' },
    { name: 'no-metrics', resources: ['pods.metrics.k8s.io', 'nodes.metrics.k8s.io'], namespaces: ['*'], verbs: ['*'], effect: 'deny' },
  ];
}

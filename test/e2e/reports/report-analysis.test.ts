import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../../src/rbac/principal.js';
import type { Finding, ReportDocument, ReportType } from '../../../src/reports/document/document.js';
import { createGenerators } from '../../../src/reports/generators.js';
import { findOptionalBinary } from '../../../src/tools/binaries.js';
import { clusterKubeconfig, useNamespace } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { reportTestRoles, useReportFindings, type ExpectedFinding } from '../../helpers/report-findings.js';
import { startTestService, type TestService } from '../../helpers/service.js';

const seeded = useReportFindings('ra');
const enforcing = useNamespace('ra-enforcing');
const admin: Principal = { username: 'admin', role: 'admin', roles: [] };
const auditor: Principal = { username: 'auditor', role: 'viewer', roles: ['no-fenced'] };
const noMetrics: Principal = { username: 'no-metrics', role: 'viewer', roles: ['no-metrics'] };

let service: TestService;

beforeAll(async () => {
  service = await startTestService({
    config: {
      authorization: {
        roles: reportTestRoles(seeded.current),
      },
    },
  });
});
afterAll(async () => {
  await service?.close();
});

/** Runs a generator as compose builds it (the service's own deps), recording progress. */
async function generate(
  type: ReportType,
  principal: Principal,
  namespace?: string,
  target = service,
): Promise<{ document: ReportDocument; progress: number[] }> {
  const deps = target.deps;
  const generators = createGenerators({
    clusterName: deps.clusters.homeName,
    identities: deps.home.identities,
    policy: deps.home.policy,
    ownClient: deps.home.kube.forIdentity(undefined),
    helm: deps.home.helm,
    trustedRegistries: ['registry.k8s.io'],
    clock: deps.clock,
  });
  const generator = generators.find((candidate) => candidate.type === type)!;
  const progress: number[] = [];
  const document = await generator.generate({ principal, namespace, progress: (percent) => progress.push(percent), signal: new AbortController().signal });
  return { document, progress };
}

const findingsOf = (document: ReportDocument): Finding[] => document.sections.flatMap((section) => section.findings);

function matching(document: ReportDocument, expected: ExpectedFinding): Finding | undefined {
  return findingsOf(document).find(
    (finding) =>
      finding.rule === expected.rule &&
      finding.object.kind === expected.object.kind &&
      finding.object.name === expected.object.name &&
      (finding.object.namespace ?? '') === (expected.object.namespace ?? ''),
  );
}

describe('security assessment', () => {
  let report: { document: ReportDocument; progress: number[] };
  beforeAll(async () => {
    report = await generate('security-assessment', admin);
  }, 120_000);

  it('reports each seeded finding with its severity and object, and why and how to fix it', () => {
    for (const expected of seeded.current.expected) {
      const finding = matching(report.document, expected);
      expect(finding, `${expected.rule} on ${expected.object.kind} ${expected.object.name}`).toBeDefined();
      expect(finding!.severity).toBe(expected.severity);
      expect(finding!.why.length).toBeGreaterThan(20);
      expect(finding!.fix.length).toBeGreaterThan(10);
    }
  });

  it('has the four sections scored 0–100 and an overall score, and reports progress up to 100', () => {
    const { document, progress } = report;
    expect(document.sections.map((section) => section.id)).toEqual(['rbac', 'network-policies', 'vulnerabilities', 'compliance']);
    for (const section of document.sections) {
      expect(section.status).toBe('ok');
      expect(section.score).toBeGreaterThanOrEqual(0);
      expect(section.score).toBeLessThanOrEqual(100);
    }
    // The overall score is the sections' mean, rounded; the seeded findings keep it off a perfect 100.
    const sectionScores = document.sections.map((section) => section.score ?? 0);
    expect(document.score).toBe(Math.round(sectionScores.reduce((sum, score) => sum + score, 0) / sectionScores.length));
    expect(document.score).not.toBe(100);
    expect(progress.at(-1)).toBe(100);
    expect([...progress].sort((left, right) => left - right)).toEqual(progress);
  });

  it('flags images from registries outside reports.trusted_registries, and not the trusted ones', () => {
    const { openNamespace } = seeded.current;
    const untrusted = findingsOf(report.document).filter(
      (finding) => finding.rule === 'image.untrusted-registry' && finding.object.namespace === openNamespace,
    );
    expect(untrusted.map((finding) => `${finding.object.kind}/${finding.object.name}`)).toEqual(['Deployment/web']);
    expect(untrusted[0]!.severity).toBe('medium');
  });

  it('shows the CVE counts of the VulnerabilityReport per workload', () => {
    const section = report.document.sections.find((candidate) => candidate.id === 'vulnerabilities')!;
    const table = section.tables.find((candidate) => candidate.title?.includes('Trivy'))!;
    const row = table.rows.find((candidate) => candidate[0] === `Deployment ${seeded.current.openNamespace}/web`);
    expect(row?.slice(2)).toEqual([2, 5, 7, 11]);
  });

  it('takes the Pod Security violations from the API server (dry-run labels), per namespace and level', () => {
    const section = report.document.sections.find((candidate) => candidate.id === 'compliance')!;
    const table = section.tables.find((candidate) => candidate.title?.startsWith('Pod Security'))!;
    const row = table.rows.find((candidate) => candidate[0] === seeded.current.openNamespace)!;
    // baseline: the privileged pod; restricted: it and the web pod.
    expect(row[1]).toBe(1);
    expect(Number(row[2])).toBeGreaterThanOrEqual(2);
    expect(row[3]).toBe('requester');
    const restricted = findingsOf(report.document).filter(
      (finding) => finding.rule === 'pss.restricted' && finding.object.namespace === seeded.current.openNamespace,
    );
    expect(restricted.length).toBeGreaterThan(0);
    const baseline = matching(report.document, {
      rule: 'pss.baseline',
      severity: 'high',
      object: { kind: 'Pod', name: 'privileged', namespace: seeded.current.openNamespace },
    });
    expect(baseline?.title).toContain('privileged');
  });

  it('never contains a Secret value', () => {
    expect(JSON.stringify(report.document)).not.toContain(seeded.current.secretValue);
  });

  it('does not dry-run a level a namespace already enforces (the API server evaluates only a stricter label)', { timeout: 120_000 }, async () => {
    await applyYaml(
      clusterKubeconfig(),
      `apiVersion: v1
kind: Pod
metadata: {name: plain, namespace: ${enforcing.name}}
spec:
  containers: [{name: main, image: "registry.k8s.io/pause:3.10"}]
`,
    );
    await runKubectl(clusterKubeconfig(), ['label', 'namespace', enforcing.name, 'pod-security.kubernetes.io/enforce=baseline']);
    const { document } = await generate('security-assessment', admin, enforcing.name);
    const section = document.sections.find((candidate) => candidate.id === 'compliance')!;
    const row = section.tables[0]!.rows.find((candidate) => candidate[0] === enforcing.name)!;
    expect(row.slice(1, 4)).toEqual(['enforced', 1, 'requester']);
    const findings = findingsOf(document).filter((finding) => finding.rule.startsWith('pss.'));
    expect(findings.map((finding) => `${finding.rule} ${finding.object.name}`)).toEqual(['pss.restricted plain']);
  });
});

describe('as a viewer with a deny role on a namespace', () => {
  for (const type of ['security-assessment', 'cluster-overview'] as const) {
    it(`leaves the namespace out of the ${type} and says so`, { timeout: 120_000 }, async () => {
      const { document } = await generate(type, auditor);
      const { fencedNamespace, openNamespace, secretValue } = seeded.current;
      expect(document.requester).toBe('auditor');
      expect(document.scope.omittedNamespaces).toContain(fencedNamespace);
      const rest = JSON.stringify({ ...document, scope: { ...document.scope, omittedNamespaces: [] } });
      expect(rest).not.toContain(fencedNamespace);
      expect(rest).toContain(openNamespace);
      expect(rest).not.toContain(secretValue);
    });
  }

  it('still finds what it may see', { timeout: 120_000 }, async () => {
    const { document } = await generate('security-assessment', auditor);
    const visible = seeded.current.expected.filter((expected) => expected.object.namespace !== seeded.current.fencedNamespace);
    for (const expected of visible) expect(matching(document, expected), expected.rule).toBeDefined();
  });
});

describe('cluster overview', () => {
  it('shows nodes, workloads, usage, events and Helm releases; never a Secret value', { timeout: 120_000 }, async () => {
    const { document, progress } = await generate('cluster-overview', admin);
    const section = (id: string) => document.sections.find((candidate) => candidate.id === id)!;
    expect(document.cluster.version).toMatch(/^v1\./);
    const nodes = section('nodes');
    expect(nodes.status).toBe('ok');
    expect(nodes.tables[0]!.rows.map((row) => row[0])).toContain('kwok-node-0');
    const workloads = section('workloads').tables.find((table) => table.title === 'Workloads')!;
    expect(workloads.rows.find((row) => row[0] === 'Deployment')![1]).toBeGreaterThanOrEqual(1);
    expect(section('capacity').charts[0]!.bars.length).toBeGreaterThan(0);
    const usage = section('usage');
    expect(usage.status, usage.unavailableReason).toBe('ok');
    expect(usage.charts.find((chart) => chart.title === 'CPU use per node')!.bars.map((bar) => bar.label)).toContain('kwok-node-0');
    // Helm releases need the helm binary: without it the section says so and the report still completes.
    const helm = section('helm');
    if (findOptionalBinary('helm')) expect(helm.status, helm.unavailableReason).toBe('ok');
    else expect(helm).toMatchObject({ status: 'unavailable', unavailableReason: expect.stringContaining('helm is not installed') });
    expect(progress.at(-1)).toBe(100);
    expect(JSON.stringify(document)).not.toContain(seeded.current.secretValue);
  });

  it('marks live usage unavailable when metrics are forbidden, and still completes', { timeout: 120_000 }, async () => {
    const { document } = await generate('cluster-overview', noMetrics);
    const usage = document.sections.find((candidate) => candidate.id === 'usage')!;
    expect(usage.status).toBe('unavailable');
    expect(usage.unavailableReason).toContain('resource-level role');
    expect(usage.charts).toEqual([]);
    const others = document.sections.filter((candidate) => candidate.id !== 'usage' && candidate.id !== 'helm');
    expect(others.every((candidate) => candidate.status === 'ok')).toBe(true);
  });

  it('reports one namespace when asked to', { timeout: 120_000 }, async () => {
    const { openNamespace } = seeded.current;
    const { document } = await generate('cluster-overview', admin, openNamespace);
    expect(document.scope.namespace).toBe(openNamespace);
    const namespaces = document.sections.find((candidate) => candidate.id === 'namespaces')!;
    expect(namespaces.tables[0]!.rows.map((row) => row[0])).toEqual([openNamespace]);
  });
});

describe('reads made with the requester’s cluster identity (impersonation)', () => {
  let impersonating: TestService;
  beforeAll(async () => {
    const { openNamespace } = seeded.current;
    // The viewer's cluster identity may read the open namespace only (ClusterRole view, bound there).
    await applyYaml(
      clusterKubeconfig(),
      `apiVersion: v1
kind: ServiceAccount
metadata: {name: report-viewer, namespace: ${openNamespace}}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: report-viewer, namespace: ${openNamespace}}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
subjects: [{kind: ServiceAccount, name: report-viewer, namespace: ${openNamespace}}]
`,
    );
    impersonating = await startTestService({
      config: { authorization: { impersonation: { enabled: true, mappings: { viewer: `system:serviceaccount:${openNamespace}:report-viewer` } } } },
    });
  });
  afterAll(async () => {
    await impersonating?.close();
  });

  it(
    'marks what the cluster refuses the identity unavailable, and dry-runs Pod Security as Pilothouse for visible namespaces',
    { timeout: 120_000 },
    async () => {
      const { openNamespace } = seeded.current;
      const viewer: Principal = { username: 'namespace-viewer', role: 'viewer', roles: [] };
      const { document } = await generate('security-assessment', viewer, openNamespace, impersonating);
      const section = (id: string) => document.sections.find((candidate) => candidate.id === id)!;
      expect(section('rbac').status).toBe('unavailable');
      expect(section('rbac').unavailableReason).toContain('refused');
      expect(section('vulnerabilities').status).toBe('ok');
      expect(
        matching(
          document,
          seeded.current.expected.find((expected) => expected.rule === 'image.latest-tag')!,
        ),
      ).toBeDefined();
      const compliance = section('compliance');
      expect(compliance.status, compliance.unavailableReason).toBe('ok');
      const row = compliance.tables[0]!.rows.find((candidate) => candidate[0] === openNamespace)!;
      expect(row[3]).toContain('Pilothouse');
      expect(row[1]).toBe(1);
    },
  );

  it('names no pod of a namespace the identity may not read', { timeout: 120_000 }, async () => {
    const viewer: Principal = { username: 'namespace-viewer', role: 'viewer', roles: [] };
    const { document } = await generate('security-assessment', viewer, seeded.current.fencedNamespace, impersonating);
    expect(document.sections.find((candidate) => candidate.id === 'compliance')!.status).toBe('unavailable');
    const text = JSON.stringify(document);
    for (const pod of ['"api"', '"worker"', 'api (', 'worker (', 'Pod api', 'Pod worker']) expect(text).not.toContain(pod);
  });
});

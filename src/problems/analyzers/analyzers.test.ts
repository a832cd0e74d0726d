import { describe, expect, it } from 'vitest';
import type { AnalysisContext, Analyzer } from '../analyzer.js';
import { ObjectStore } from '../object-store.js';
import type { KubeThing } from '../shapes.js';
import { ignoredBecause } from '../ignore-rules.js';
import { validSchedule } from './cron-schedule.js';
import { cronJobAnalyzer } from './cron-job.js';
import { deploymentAnalyzer } from './deployment.js';
import { disruptionBudgetAnalyzer } from './disruption-budget.js';
import { nodeAnalyzer } from './node.js';
import { podAnalyzer, podOwner } from './pod.js';
import { resourceQuotaAnalyzer } from './resource-quota.js';
import { serviceAnalyzer } from './service.js';
import { tlsSecretAnalyzer } from './tls-secret.js';
import { validatingWebhookAnalyzer } from './webhook.js';
import { networkPolicyAnalyzer } from './network-policy.js';

const now = Date.parse('2026-06-01T12:00:00Z');
const minutesAgo = (minutes: number): string => new Date(now - minutes * 60_000).toISOString();

function storeOf(...objects: KubeThing[]): ObjectStore {
  const store = new ObjectStore();
  for (const object of objects) store.put(object);
  return store;
}

function run(analyzer: Analyzer, object: KubeThing, store = storeOf(object), settings = {}): ReturnType<Analyzer['analyze']> {
  const context: AnalysisContext = { objects: store, now, settings: { ...analyzer.defaults, ...settings } };
  return analyzer.analyze(object, context);
}

const reasons = (analysis: ReturnType<Analyzer['analyze']>): string[] => analysis.findings.map((finding) => finding.reason);

const pod = (name: string, status: object, extra: object = {}): KubeThing => ({
  kind: 'Pod',
  metadata: { name, namespace: 'shop', creationTimestamp: minutesAgo(60), labels: { app: 'web' } },
  spec: { nodeName: 'node-1', containers: [{ name: 'main' }] },
  status,
  ...extra,
});

describe('pod analyzer', () => {
  it('names each container state with its evidence', () => {
    const crashing = pod('a', {
      phase: 'Running',
      containerStatuses: [
        {
          name: 'main',
          restartCount: 9,
          state: { waiting: { reason: 'CrashLoopBackOff' } },
          lastState: { terminated: { reason: 'OOMKilled', exitCode: 137 } },
        },
        { name: 'side', state: { waiting: { reason: 'ImagePullBackOff', message: 'pull access denied' } } },
        { name: 'conf', state: { waiting: { reason: 'CreateContainerConfigError', message: 'configmap "settings" not found' } } },
      ],
    });
    const analysis = run(podAnalyzer, crashing);
    expect(reasons(analysis).sort()).toEqual(['CrashLoopBackOff', 'CreateContainerConfigError', 'ImagePullBackOff', 'OOMKilled']);
    const crash = analysis.findings.find((finding) => finding.reason === 'CrashLoopBackOff')!;
    expect(crash.message).toContain('OOMKilled, exit code 137');
    expect(crash.hint).toBe('kubectl logs a -n shop -c main --previous');
    expect(analysis.findings.find((finding) => finding.reason === 'CreateContainerConfigError')!.message).toContain('configmap "settings" not found');
  });

  it('finds restarts above the threshold, evictions, and failing readiness from Unhealthy events', () => {
    const restarting = pod('b', { phase: 'Running', containerStatuses: [{ name: 'main', restartCount: 6, state: { running: {} } }] });
    expect(reasons(run(podAnalyzer, restarting))).toEqual(['Restarts']);
    expect(reasons(run(podAnalyzer, restarting, undefined, { restartThreshold: 10 }))).toEqual([]);
    expect(reasons(run(podAnalyzer, pod('c', { phase: 'Failed', reason: 'Evicted', message: 'low on memory' })))).toEqual(['Evicted']);
    const unready = pod('d', { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] });
    const event: KubeThing = {
      kind: 'Event',
      metadata: { name: 'd.1', namespace: 'shop' },
      involvedObject: { kind: 'Pod', namespace: 'shop', name: 'd' },
      reason: 'Unhealthy',
      message: 'Readiness probe failed: HTTP probe failed with statuscode: 503',
    };
    const analysis = run(podAnalyzer, unready, storeOf(unready, event));
    expect(reasons(analysis)).toEqual(['ReadinessProbeFailed']);
    expect(analysis.findings[0]!.evidence).toContain('Event Unhealthy: Readiness probe failed: HTTP probe failed with statuscode: 503');
  });

  it('waits for a deadline before a pod pending or terminating counts as stuck', () => {
    const young = pod('e', { phase: 'Pending' }, { spec: {}, metadata: { name: 'e', namespace: 'shop', creationTimestamp: minutesAgo(2) } });
    const early = run(podAnalyzer, young);
    expect(early.findings).toEqual([]);
    expect(early.recheckAt).toBe(now + 3 * 60_000);
    const old = pod('f', { phase: 'Pending' }, { spec: {}, metadata: { name: 'f', namespace: 'shop', creationTimestamp: minutesAgo(10) } });
    expect(reasons(run(podAnalyzer, old))).toEqual(['Pending']);
    const stuck = pod('g', { phase: 'Running' }, { metadata: { name: 'g', namespace: 'shop', deletionTimestamp: minutesAgo(30) } });
    expect(reasons(run(podAnalyzer, stuck))).toEqual(['StuckTerminating']);
  });

  it("names a ReplicaSet's Deployment as the owner", () => {
    const replicaSet: KubeThing = {
      kind: 'ReplicaSet',
      metadata: { name: 'web-1', namespace: 'shop', ownerReferences: [{ kind: 'Deployment', name: 'web', controller: true }] },
    };
    const owned = pod('h', {}, { metadata: { name: 'h', namespace: 'shop', ownerReferences: [{ kind: 'ReplicaSet', name: 'web-1', controller: true }] } });
    expect(podOwner(owned, storeOf(replicaSet, owned))).toEqual({ kind: 'Deployment', namespace: 'shop', name: 'web' });
  });
});

describe('other analyzers', () => {
  it('Deployment: a rollout past its deadline and unavailable replicas', () => {
    const deployment: KubeThing = {
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop' },
      spec: { replicas: 3 },
      status: {
        unavailableReplicas: 3,
        conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: 'ReplicaSet "web-1" has timed out progressing.' }],
      },
    };
    const analysis = run(deploymentAnalyzer, deployment);
    expect(reasons(analysis)).toEqual(['ProgressDeadlineExceeded', 'UnavailableReplicas']);
    expect(analysis.findings[1]!.severity).toBe('critical');
  });

  it('Service: no pod selected, then no ready pod, then none', () => {
    const service: KubeThing = {
      kind: 'Service',
      metadata: { name: 'web', namespace: 'shop' },
      spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 'http' }] },
    };
    expect(reasons(run(serviceAnalyzer, service))).toEqual(['NoPodsSelected']);
    const unready = pod('p', { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] });
    expect(reasons(run(serviceAnalyzer, service, storeOf(service, unready)))).toEqual(['NoReadyEndpoints', 'TargetPortMissing']);
    const ready = pod(
      'p',
      { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
      { spec: { containers: [{ name: 'main', ports: [{ name: 'http', containerPort: 8080 }] }] } },
    );
    expect(reasons(run(serviceAnalyzer, service, storeOf(service, ready)))).toEqual([]);
  });

  it('webhooks: Fail is critical, Ignore a warning', () => {
    const configuration = (failurePolicy: string): KubeThing => ({
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'guard' },
      webhooks: [{ name: 'check.guard.dev', failurePolicy, clientConfig: { service: { namespace: 'guard', name: 'guard-svc' } } }],
    });
    expect(run(validatingWebhookAnalyzer, configuration('Fail')).findings[0]).toMatchObject({ severity: 'critical', reason: 'ServiceMissing' });
    expect(run(validatingWebhookAnalyzer, configuration('Ignore')).findings[0]).toMatchObject({ severity: 'warning' });
  });

  it('ResourceQuota above 90 %, Node not ready, PDB allowing no disruption, NetworkPolicy selecting nothing', () => {
    const quota: KubeThing = {
      kind: 'ResourceQuota',
      metadata: { name: 'q', namespace: 'shop' },
      status: { hard: { 'requests.cpu': '2', pods: '10' }, used: { 'requests.cpu': '1900m', pods: '3' } },
    };
    expect(run(resourceQuotaAnalyzer, quota).findings.map((finding) => [finding.reason, finding.part])).toEqual([['QuotaNearlyFull', 'requests.cpu']]);
    const node: KubeThing = {
      kind: 'Node',
      metadata: { name: 'n1' },
      status: {
        conditions: [
          { type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown' },
          { type: 'DiskPressure', status: 'True' },
        ],
      },
    };
    expect(reasons(run(nodeAnalyzer, node))).toEqual(['NotReady', 'DiskPressure']);
    const budget: KubeThing = {
      kind: 'PodDisruptionBudget',
      metadata: { name: 'b', namespace: 'shop' },
      spec: { selector: { matchLabels: { app: 'web' } } },
      status: { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1 },
    };
    const member = pod('m', { phase: 'Running' });
    expect(reasons(run(disruptionBudgetAnalyzer, budget, storeOf(budget, member)))).toEqual(['NoDisruptionAllowed']);
    expect(reasons(run(disruptionBudgetAnalyzer, budget))).toEqual(['NoPodsMatched']);
    const policy: KubeThing = { kind: 'NetworkPolicy', metadata: { name: 'np', namespace: 'shop' }, spec: { podSelector: { matchLabels: { app: 'db' } } } };
    expect(reasons(run(networkPolicyAnalyzer, policy, storeOf(policy, member)))).toEqual(['SelectsNoPod']);
  });

  it('CronJob: schedules, a failed last run, suspended for long', () => {
    expect(['*/5 * * * *', '0 3 * * MON-FRI', '@hourly', 'CRON_TZ=UTC 0 0 1 * *'].every(validSchedule)).toBe(true);
    expect(['* * * *', '61 * * * *', 'every day', '*/x * * * *'].some(validSchedule)).toBe(false);
    const cronJob: KubeThing = {
      kind: 'CronJob',
      metadata: { name: 'nightly', namespace: 'shop', creationTimestamp: minutesAgo(60 * 24 * 30) },
      spec: { schedule: '0 3 * * *', suspend: true },
    };
    const job: KubeThing = {
      kind: 'Job',
      metadata: {
        name: 'nightly-1',
        namespace: 'shop',
        creationTimestamp: minutesAgo(60),
        ownerReferences: [{ kind: 'CronJob', name: 'nightly', controller: true }],
      },
      status: { conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded' }] },
    };
    expect(reasons(run(cronJobAnalyzer, cronJob, storeOf(cronJob, job)))).toEqual(['LastRunFailed', 'SuspendedForLong']);
  });

  it('TLS Secret: a certificate far from expiry schedules its deadline; an unreadable one finds nothing', () => {
    const secret: KubeThing = {
      kind: 'Secret',
      type: 'kubernetes.io/tls',
      metadata: { name: 's', namespace: 'shop' },
      data: { 'tls.crt': Buffer.from('not a certificate').toString('base64') },
    };
    expect(run(tlsSecretAnalyzer, secret)).toEqual({ findings: [] });
  });

  it('ignore rules: the annotation value is the reason; namespaces and selectors from config', () => {
    const annotated: KubeThing = { metadata: { name: 'x', namespace: 'lab', annotations: { 'pilothouse.dev/ignore-problems': 'known flake' } } };
    expect(ignoredBecause(annotated, [])).toBe('known flake');
    const labelled: KubeThing = { metadata: { name: 'y', namespace: 'lab', labels: { tier: 'test' } } };
    expect(ignoredBecause(labelled, [{ namespaces: ['prod'] }, { selector: { tier: 'test' } }])).toBe('problems.ignore[1]');
    expect(ignoredBecause(labelled, [{ namespaces: ['lab'], selector: { tier: 'prod' } }])).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import type { Analyzer } from '../analyzer.js';
import { ObjectStore } from '../object-store.js';
import type { KubeThing } from '../shapes.js';
import { argoApplicationAnalyzer } from './argocd-application.js';
import { fluxHelmReleaseAnalyzer } from './flux-helm-release.js';
import { fluxKustomizationAnalyzer } from './flux-kustomization.js';

function run(analyzer: Analyzer, object: KubeThing): ReturnType<Analyzer['analyze']> {
  const objects = new ObjectStore();
  objects.put(object);
  return analyzer.analyze(object, { objects, now: Date.parse('2026-06-01T12:00:00Z'), settings: {} });
}

const application = (status: object): KubeThing => ({ kind: 'Application', metadata: { name: 'shop', namespace: 'argocd' }, status });
const flux = (kind: string, conditions: object[], spec: object = {}): KubeThing => ({
  kind,
  metadata: { name: 'apps', namespace: 'flux-system' },
  spec,
  status: { conditions, lastAttemptedRevision: 'main@sha1:0123abc' },
});

describe('Argo CD Application analyzer', () => {
  it('names an out-of-sync Application with the resources that differ, and a degraded or missing health', () => {
    const analysis = run(
      argoApplicationAnalyzer,
      application({
        sync: { status: 'OutOfSync', revision: 'abc123' },
        health: { status: 'Degraded', message: 'Deployment "web" exceeded its progress deadline' },
        resources: [
          { kind: 'Deployment', name: 'web', status: 'OutOfSync' },
          { kind: 'Service', name: 'web', status: 'Synced' },
        ],
      }),
    );
    const [sync, health] = analysis.findings;
    expect(sync).toMatchObject({ severity: 'warning', reason: 'OutOfSync', message: "The cluster differs from the Application's source: Deployment/web" });
    expect(sync?.evidence).toEqual(['status.sync.status: OutOfSync', 'status.sync.revision: abc123', 'status.resources OutOfSync: Deployment/web']);
    expect(health).toMatchObject({ severity: 'critical', reason: 'Degraded' });
    expect(health?.message).toContain('exceeded its progress deadline');
    expect(sync?.hint).toBe('kubectl get applications.argoproj.io shop -n argocd -o yaml');
    expect(run(argoApplicationAnalyzer, application({ health: { status: 'Missing' } })).findings.map((finding) => finding.severity)).toEqual(['warning']);
  });

  it('finds nothing in a synced, healthy Application; a failed sync and error conditions are named', () => {
    expect(run(argoApplicationAnalyzer, application({ sync: { status: 'Synced' }, health: { status: 'Healthy' } })).findings).toEqual([]);
    const failing = application({
      sync: { status: 'Synced' },
      operationState: { phase: 'Failed', message: 'one or more objects failed to apply' },
      conditions: [
        { type: 'ComparisonError', message: 'repository not accessible' },
        { type: 'SharedResourceWarning', message: 'shared' },
      ],
    });
    expect(run(argoApplicationAnalyzer, failing).findings.map((finding) => finding.reason)).toEqual(['SyncFailed', 'ComparisonError']);
  });
});

describe('Flux analyzers', () => {
  it('names a not-ready Kustomization with the Ready condition reason and message', () => {
    const analysis = run(
      fluxKustomizationAnalyzer,
      flux('Kustomization', [{ type: 'Ready', status: 'False', reason: 'BuildFailed', message: 'kustomization path not found' }]),
    );
    expect(analysis.findings).toEqual([
      {
        severity: 'warning',
        reason: 'NotReady',
        message: 'Not ready (BuildFailed): kustomization path not found',
        evidence: [
          'status.conditions[Ready]: False, reason BuildFailed, message kustomization path not found',
          'status.lastAttemptedRevision: main@sha1:0123abc',
        ],
        hint: 'kubectl describe kustomizations.kustomize.toolkit.fluxcd.io apps -n flux-system',
      },
    ]);
  });

  it('names a stalled HelmRelease critical, a suspended one info, and a ready one not at all', () => {
    const stalled = flux('HelmRelease', [
      { type: 'Ready', status: 'False', reason: 'InstallFailed', message: 'install retries exhausted' },
      { type: 'Stalled', status: 'True', reason: 'RetriesExceeded', message: 'Failed to install after 1 attempt(s)' },
    ]);
    expect(run(fluxHelmReleaseAnalyzer, stalled).findings.map((finding) => [finding.severity, finding.reason])).toEqual([['critical', 'Stalled']]);
    const suspended = flux('HelmRelease', [{ type: 'Ready', status: 'True', reason: 'UpgradeSucceeded' }], { suspend: true });
    expect(run(fluxHelmReleaseAnalyzer, suspended).findings.map((finding) => [finding.severity, finding.reason])).toEqual([['info', 'Suspended']]);
    expect(run(fluxHelmReleaseAnalyzer, flux('HelmRelease', [{ type: 'Ready', status: 'True' }])).findings).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { findingsAbout, groupFindings, matchesFilters, noFilters, type Finding } from './problem-model';

const finding = (id: string, severity: Finding['severity'], object: Finding['object'], extra: Partial<Finding> = {}): Finding => ({
  id,
  cluster: 'home',
  analyzer: 'pod',
  severity,
  object,
  reason: 'CrashLoopBackOff',
  message: 'container main keeps crashing',
  evidence: ['status.containerStatuses[main].state.waiting.reason: CrashLoopBackOff'],
  since: '2026-01-01T00:00:00Z',
  lastSeen: '2026-01-01T00:01:00Z',
  hint: 'kubectl logs',
  ...extra,
});

const pod = finding('a', 'critical', { kind: 'Pod', namespace: 'shop', name: 'web-1' }, { owner: { kind: 'Deployment', name: 'web' } });
const service = finding(
  'b',
  'warning',
  { kind: 'Service', namespace: 'shop', name: 'web' },
  { reason: 'NoPodsSelected', evidence: ['spec.selector: app=web'] },
);
const node = finding('c', 'critical', { kind: 'Node', name: 'node-1' }, { reason: 'NotReady' });
const other = finding('d', 'critical', { kind: 'Pod', namespace: 'bank', name: 'api' });

describe('the Problems page model', () => {
  it('groups by severity (critical first), then namespace (cluster-wide first)', () => {
    const groups = groupFindings([service, other, pod, node]);
    expect(groups.map((group) => group.severity)).toEqual(['critical', 'warning']);
    expect(groups[0]!.namespaces.map((entry) => [entry.namespace, entry.items.map((item) => item.id)])).toEqual([
      ['', ['c']],
      ['bank', ['d']],
      ['shop', ['a']],
    ]);
  });

  it('filters by namespace, severity, kind (any case) and text in the evidence', () => {
    const all = [pod, service, node, other];
    expect(all.filter((item) => matchesFilters(item, { ...noFilters, namespace: 'shop' })).map((item) => item.id)).toEqual(['a', 'b']);
    expect(all.filter((item) => matchesFilters(item, { ...noFilters, severity: 'warning' })).map((item) => item.id)).toEqual(['b']);
    expect(all.filter((item) => matchesFilters(item, { ...noFilters, kind: 'pod' })).map((item) => item.id)).toEqual(['a', 'd']);
    expect(all.filter((item) => matchesFilters(item, { ...noFilters, text: 'WAITING.reason' })).map((item) => item.id)).toEqual(['a', 'c', 'd']);
  });

  it("an object page's banner shows its own findings and those of what it owns", () => {
    const all = [pod, service, node, other];
    expect(findingsAbout(all, { resource: 'pods', namespace: 'shop', name: 'web-1' }).map((item) => item.id)).toEqual(['a']);
    expect(findingsAbout(all, { resource: 'deployments', namespace: 'shop', name: 'web' }).map((item) => item.id)).toEqual(['a']);
    expect(findingsAbout(all, { resource: 'services', namespace: 'shop', name: 'web' }).map((item) => item.id)).toEqual(['b']);
    expect(findingsAbout(all, { resource: 'nodes', name: 'node-1' }).map((item) => item.id)).toEqual(['c']);
    expect(findingsAbout(all, { resource: 'pods', namespace: 'bank', name: 'web-1' })).toEqual([]);
  });
});

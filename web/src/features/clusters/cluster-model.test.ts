import { describe, expect, it } from 'vitest';
import type { AccessRequest, ClusterList, ResourceItem } from '@pilothouse/wire/types';
import { clusterTone, currentClusterName, notReadyPods, pendingRequests, readyNodes, summaryOf } from './cluster-model';

const access = { role: 'admin' as const, roles: [], write: true };
const list: ClusterList = {
  home: 'home',
  items: [
    { name: 'home', source: 'home', reachable: true, version: 'v1.31.0', access },
    { name: 'staging', source: 'config', reachable: false, error: 'connect ECONNREFUSED', access },
  ],
};

describe('cluster model', () => {
  it('names the current cluster (absent from the URL: home) and its dot', () => {
    expect(currentClusterName('', list)).toBe('home');
    expect(currentClusterName('staging', list)).toBe('staging');
    expect(currentClusterName('', undefined)).toBe('');
    expect(clusterTone(summaryOf(list, 'home'))).toBe('good');
    expect(clusterTone(summaryOf(list, 'staging'))).toBe('bad');
    expect(clusterTone(summaryOf(list, 'nope'))).toBe('unknown');
  });

  it('counts ready nodes, pods that are not ready, pending access requests', () => {
    const nodes = [
      { name: 'a', status: 'Ready' },
      { name: 'b', status: 'Ready,SchedulingDisabled' },
      { name: 'c', status: 'NotReady' },
    ] as ResourceItem[];
    expect(readyNodes(nodes)).toEqual({ ready: 2, total: 3 });
    const pods = [
      { name: 'ok', status: 'Running', ready: '2/2' },
      { name: 'starting', status: 'Running', ready: '1/2' },
      { name: 'pending', status: 'Pending', ready: '0/1' },
      { name: 'crash', status: 'CrashLoopBackOff', ready: '0/1' },
      { name: 'job', status: 'Completed', ready: '0/1' },
    ] as ResourceItem[];
    expect(notReadyPods(pods).map((pod) => pod.name)).toEqual(['starting', 'pending', 'crash']);
    const requests = [{ phase: 'Pending' }, { phase: 'Approved' }, { phase: 'Pending' }] as AccessRequest[];
    expect(pendingRequests(requests)).toHaveLength(2);
  });
});

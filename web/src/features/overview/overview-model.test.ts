import { describe, expect, it } from 'vitest';
import {
  averagePercent,
  crashLoopingPods,
  eventObjectTarget,
  listLink,
  notReadyNodes,
  pendingPods,
  unavailableDeployments,
  warningEvents,
} from './overview-model';

const pods = [
  { name: 'ok', namespace: 'shop', status: 'Running', restarts: '0' },
  { name: 'loop', namespace: 'shop', status: 'CrashLoopBackOff', restarts: '7 (1m ago)' },
  { name: 'stuck', namespace: 'shop', status: 'Pending', restarts: '0' },
];
const events = [
  { name: 'e1', namespace: 'shop', type: 'Warning', reason: 'FailedScheduling', object: 'pod/stuck', message: '0/3 nodes are available' },
  { name: 'e2', namespace: 'shop', type: 'Normal', reason: 'Pulled', object: 'pod/ok', message: 'pulled' },
];

describe('overview model', () => {
  it('finds crash-looping and pending pods with the reason', () => {
    expect(crashLoopingPods(pods).map((pod) => [pod.name, pod.reason])).toEqual([['loop', 'CrashLoopBackOff']]);
    expect(pendingPods(pods, events)).toEqual([
      { name: 'stuck', namespace: 'shop', reason: 'Pending', restarts: '0', message: 'FailedScheduling: 0/3 nodes are available' },
    ]);
  });

  it('finds deployments short of replicas, warnings, nodes not ready', () => {
    const deployments = [
      { name: 'web', namespace: 'shop', ready: '1/3' },
      { name: 'api', namespace: 'shop', ready: '2/2' },
    ];
    expect(unavailableDeployments(deployments)).toEqual([{ name: 'web', namespace: 'shop', ready: '1/3' }]);
    expect(warningEvents(events, 10).map((event) => event.name)).toEqual(['e1']);
    expect(
      notReadyNodes([
        { name: 'a', status: 'Ready' },
        { name: 'b', status: 'NotReady' },
        { name: 'c', status: 'Ready,SchedulingDisabled' },
      ]).map((node) => node.name),
    ).toEqual(['b']);
  });

  it('averages known percentages and links lists with a filter', () => {
    expect(averagePercent([10, null, 30])).toBe(20);
    expect(averagePercent([null])).toBeNull();
    expect(listLink('pods', 'CrashLoopBackOff')).toBe('/resources/pods?filter=CrashLoopBackOff');
  });

  it('links a warning event to the page of its object', () => {
    expect(eventObjectTarget({ name: 'e', namespace: 'shop', object: 'pod/web-1' })).toEqual({ resource: 'pods', namespace: 'shop', name: 'web-1' });
    expect(eventObjectTarget({ name: 'e', namespace: 'shop', object: 'ingress/front' })).toEqual({ resource: 'ingresses', namespace: 'shop', name: 'front' });
    expect(eventObjectTarget({ name: 'e', namespace: 'default', object: 'node/node-a' })).toEqual({ resource: 'nodes', namespace: undefined, name: 'node-a' });
    expect(eventObjectTarget({ name: 'e', namespace: 'shop', object: '' })).toBeUndefined();
  });
});

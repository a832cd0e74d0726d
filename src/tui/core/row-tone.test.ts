import { describe, expect, it } from 'vitest';
import { rowTone } from './row-tone.js';

describe('row colours', () => {
  it.each([
    [{ name: 'a', status: 'CrashLoopBackOff' }, 'red'],
    [{ name: 'a', status: 'ImagePullBackOff' }, 'red'],
    [{ name: 'a', status: 'Init:CrashLoopBackOff' }, 'red'],
    [{ name: 'a', status: 'OOMKilled' }, 'red'],
    [{ name: 'node', status: 'NotReady' }, 'red'],
    [{ name: 'a', status: 'Pending' }, 'yellow'],
    [{ name: 'a', status: 'ContainerCreating' }, 'yellow'],
    [{ name: 'a', status: 'Terminating' }, 'yellow'],
    [{ name: 'node', status: 'Ready,SchedulingDisabled' }, 'yellow'],
    [{ name: 'a', status: 'Completed' }, 'gray'],
    [{ name: 'a', status: 'Running' }, undefined],
    [{ name: 'node', status: 'Ready' }, undefined],
    [{ name: 'claim', phase: 'Pending' }, 'yellow'],
    [{ name: 'web' }, undefined],
    // A finding of :problems, by its severity (a warning's reason such as Restarts names no state).
    [{ name: 'Pod/web-1', severity: 'critical', reason: 'Unschedulable' }, 'red'],
    [{ name: 'Service/web', severity: 'warning', reason: 'NoPodsSelected' }, 'yellow'],
    [{ name: 'Node/n1', severity: 'info', reason: 'Cordoned' }, undefined],
  ])('%o is %s', (row, tone) => {
    expect(rowTone(row as never)).toBe(tone);
  });
});

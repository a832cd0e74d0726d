import { describe, expect, it } from 'vitest';
import { containerRows, imagesOf, podStatusText, selectorText, stateText, strategyText } from './summary-model';

const crashing = {
  spec: { containers: [{ name: 'main', image: 'busybox:1.36', ports: [{ name: 'http', containerPort: 8080 }] }] },
  status: {
    phase: 'Running',
    containerStatuses: [
      {
        name: 'main',
        ready: false,
        restartCount: 7,
        state: { waiting: { reason: 'CrashLoopBackOff' } },
        lastState: { terminated: { reason: 'Error', exitCode: 3, finishedAt: '2026-01-01T00:00:01Z' } },
      },
    ],
  },
};

describe('summaries', () => {
  it("names a crash-looping pod's state over its phase, with each container's last exit", () => {
    expect(podStatusText(crashing)).toBe('CrashLoopBackOff');
    expect(podStatusText({ status: { phase: 'Running' }, spec: {} })).toBe('Running');
    expect(containerRows(crashing)).toEqual([
      {
        name: 'main',
        image: 'busybox:1.36',
        state: 'Waiting',
        reason: 'CrashLoopBackOff',
        ready: false,
        restarts: 7,
        lastState: 'Terminated (Error, exit code 3) at 2026-01-01T00:00:01Z',
        ports: 'http:8080/TCP',
        init: false,
      },
    ]);
    expect(stateText({ terminated: { reason: 'OOMKilled', exitCode: 137 } })).toEqual({ state: 'Terminated', reason: 'OOMKilled, exit code 137' });
  });

  it('words strategies, selectors and images as kubectl describe does', () => {
    expect(strategyText({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 1 } })).toBe(
      'RollingUpdate (max unavailable 25%, max surge 1)',
    );
    expect(strategyText({ type: 'OnDelete' })).toBe('OnDelete');
    expect(selectorText({ matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }] })).toBe(
      'app=web, tier In (a,b)',
    );
    expect(selectorText({ app: 'web' })).toBe('app=web');
    expect(imagesOf({ initContainers: [{ image: 'init:1' }], containers: [{ image: 'web:2' }] })).toEqual(['init:1', 'web:2']);
  });
});

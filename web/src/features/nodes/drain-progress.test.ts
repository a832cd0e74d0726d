import { describe, expect, it } from 'vitest';
import { applyDrainEvent, initialProgress, progressCounts } from './drain-progress';

describe('drain progress', () => {
  it('follows cordoned, pod and result events', () => {
    let progress = initialProgress(3);
    progress = applyDrainEvent(progress, 'cordoned', { node: 'n1' });
    expect(progress.cordoned).toBe(true);
    progress = applyDrainEvent(progress, 'pod', { namespace: 'a', name: 'p1', status: 'evicted' });
    progress = applyDrainEvent(progress, 'pod', { namespace: 'a', name: 'p2', status: 'skipped', reason: 'DaemonSet' });
    expect(progress.pods.map((pod) => pod.status)).toEqual(['evicted', 'skipped']);
    expect(progressCounts(progress)).toEqual({ done: 2, total: 3 });
    progress = applyDrainEvent(progress, 'pod', { namespace: 'a', name: 'p3', status: 'failed', reason: 'timed out' });
    progress = applyDrainEvent(progress, 'result', {
      node: 'n1',
      status: 'failed',
      evicted: 1,
      failed: [{ namespace: 'a', name: 'p3', reason: 'timed out' }],
      refused: [],
      skipped: [{ namespace: 'a', name: 'p2', reason: 'DaemonSet' }],
    });
    expect(progress.result?.status).toBe('failed');
    expect(progressCounts(progress)).toEqual({ done: 3, total: 3 });
  });

  it('counts more pods than expected and keeps refused pods', () => {
    let progress = applyDrainEvent(initialProgress(0), 'pod', { namespace: 'a', name: 'p1', status: 'evicted' });
    expect(progressCounts(progress)).toEqual({ done: 1, total: 1 });
    progress = applyDrainEvent(initialProgress(2), 'result', {
      node: 'n1',
      status: 'refused',
      evicted: 0,
      failed: [],
      refused: [{ namespace: 'a', name: 'p9', reason: 'no controller' }],
      skipped: [],
    });
    expect(progress.result?.refused).toHaveLength(1);
    expect(progressCounts(progress)).toEqual({ done: 0, total: 0 });
    expect(applyDrainEvent(progress, 'ping', {})).toBe(progress);
  });
});

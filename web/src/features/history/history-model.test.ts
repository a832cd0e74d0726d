import { describe, expect, it } from 'vitest';
import { alignedSeries, averagePercentSamples, formatValue, historyKindOf, historyQuery, promqlCommand } from './history-model';

describe('usage history model', () => {
  it('maps resource types to history kinds and builds the request query', () => {
    expect(historyKindOf('deployments')).toBe('workload');
    expect(historyKindOf('configmaps')).toBeUndefined();
    expect(historyQuery({ resource: 'pods', name: 'web-1', namespace: 'shop' }, '6h')).toEqual({ kind: 'pod', name: 'web-1', range: '6h', namespace: 'shop' });
    expect(historyQuery({ resource: 'nodes', name: 'node-1', namespace: 'ignored' }, '1h')).toEqual({ kind: 'node', name: 'node-1', range: '1h' });
    expect(historyQuery({ resource: 'secrets', name: 'x', namespace: 'a' }, '1h')).toBeUndefined();
  });

  it('writes values in their units', () => {
    expect(formatValue(0.25, 'cores')).toBe('0.250 cores');
    expect(formatValue(64 * 1024 * 1024, 'bytes')).toBe('64.0 MiB');
    expect(formatValue(1536, 'bytes/s')).toBe('1.5 KiB/s');
    expect(formatValue(3.2, 'count')).toBe('3');
    expect(formatValue(null, 'bytes')).toBe('—');
  });
});

describe('the promql tool result as a chart', () => {
  it('reads the query and range of the command line', () => {
    expect(promqlCommand('promql sum(rate(x[5m])) [6h]')).toEqual({ query: 'sum(rate(x[5m]))', rangeSeconds: 21_600 });
    expect(promqlCommand('promql up')).toEqual({ query: 'up', rangeSeconds: 3600 });
    expect(promqlCommand('kubectl get pods')).toBeUndefined();
  });

  it('aligns the series of a matrix answer on shared timestamps', () => {
    const result = [
      {
        metric: { __name__: 'x', pod: 'a' },
        values: [
          [1, '1'],
          [2, '2'],
        ],
      },
      { metric: { pod: 'b' }, values: [[2, '5']] },
    ];
    expect(alignedSeries(result, 5)).toEqual({
      labels: ['pod=a', 'pod=b'],
      times: [1, 2],
      columns: [
        [1, 2],
        [null, 5],
      ],
    });
  });
});

describe("the overview's chart from history", () => {
  it('averages the nodes in percent of their allocatable at each time', () => {
    const history = (cpu: [number, number][], memory: [number, number][]) =>
      ({
        kind: 'node',
        name: 'n',
        source: 'prometheus',
        start: 0,
        end: 0,
        step: 15,
        series: [
          { name: 'cpu', unit: 'cores', points: cpu },
          { name: 'memory', unit: 'bytes', points: memory },
        ],
      }) as never;
    const samples = averagePercentSamples([
      {
        allocatableCpu: 4,
        allocatableMemory: 1000,
        history: history(
          [
            [10, 1],
            [25, 2],
          ],
          [[10, 500]],
        ),
      },
      { allocatableCpu: 2, allocatableMemory: 1000, history: history([[10, 1]], [[10, 100]]) },
    ]);
    expect(samples).toEqual([
      { time: 10_000, cpu: 38, memory: 30 },
      { time: 25_000, cpu: 50, memory: null },
    ]);
  });
});

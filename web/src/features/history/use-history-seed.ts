import { useEffect, useState } from 'react';
import { useApi } from '../../shared/api-context';
import { useCluster } from '../../shared/cluster-context';
import { quantityValue } from '../../shared/columns';
import { averagePercentSamples, type PercentSample } from './history-model';

/**
 * The overview chart's past: the last 15 minutes of every node's history (Prometheus, or this replica's memory),
 * asked once per cluster when the node list first arrives; empty when history is unavailable.
 */
export function useHistorySeed(
  nodes: readonly { name: string; allocatableCpu?: string | null; allocatableMemory?: string | null }[] | undefined,
): PercentSample[] {
  const client = useApi();
  const cluster = useCluster();
  const [seed, setSeed] = useState<{ cluster: string | undefined; samples: PercentSample[] }>();
  const ready = nodes !== undefined && seed?.cluster !== cluster;
  useEffect(() => {
    if (!ready || !nodes) return;
    const controller = new AbortController();
    const histories = nodes.map(async (node) => ({
      allocatableCpu: quantityValue(node.allocatableCpu ?? ''),
      allocatableMemory: quantityValue(node.allocatableMemory ?? ''),
      history: await client.call('GET', '/api/metrics/history', { query: { kind: 'node', name: node.name, range: '15m' }, signal: controller.signal }),
    }));
    Promise.all(histories).then(
      (answers) => setSeed({ cluster, samples: averagePercentSamples(answers) }),
      () => setSeed({ cluster, samples: [] }),
    );
    return () => controller.abort();
  }, [ready, nodes, client, cluster]);
  return seed?.cluster === cluster ? seed.samples : [];
}

import { useEffect, useState } from 'react';
import { isAbort, readSse } from '@pilothouse/wire/wire-client';
import type { ResourceItem } from '@pilothouse/wire/types';
import { useApi } from '../../shared/api-context';

type Change = { items?: ResourceItem[]; item?: ResourceItem };

function key(item: ResourceItem): string {
  return `${item.namespace ?? ''}/${item.name}`;
}

/** Applies one watch event to the rows (snapshot replaces, added/modified upsert, deleted removes). */
export function applyChange(rows: ResourceItem[], event: string, data: Change): ResourceItem[] {
  if (event === 'snapshot') return data.items ?? [];
  const item = data.item;
  if (!item) return rows;
  const others = rows.filter((row) => key(row) !== key(item));
  return event === 'deleted' ? others : [...others, item].sort((left, right) => left.name.localeCompare(right.name));
}

/**
 * The pods of a release, pushed by the server as they change (`GET /api/k8s/pods/watch` with the
 * release's instance label): how an install or upgrade progresses, without polling.
 */
export function useReleasePods(namespace: string, release: string | undefined): { pods: ResourceItem[] | undefined; error: unknown } {
  const client = useApi();
  const [state, setState] = useState<{ key: string; pods?: ResourceItem[]; error?: unknown }>({ key: '' });
  const watchKey = release ? `${namespace}/${release}` : '';
  useEffect(() => {
    if (!release) return;
    const controller = new AbortController();
    const query = { namespace, labelSelector: `app.kubernetes.io/instance=${release}` };
    const run = async (): Promise<void> => {
      const response = await client.request('GET', '/api/k8s/pods/watch', { query, accept: 'text/event-stream', signal: controller.signal });
      if (!response.body) return;
      await readSse(
        response.body,
        (event) =>
          setState((previous) => ({
            key: watchKey,
            pods: applyChange(previous.key === watchKey ? (previous.pods ?? []) : [], event.event, JSON.parse(event.data) as Change),
          })),
        controller.signal,
      );
    };
    run().catch((error: unknown) => !isAbort(error) && !controller.signal.aborted && setState({ key: watchKey, error }));
    return () => controller.abort();
  }, [client, namespace, release, watchKey]);
  return state.key === watchKey ? { pods: state.pods, error: state.error } : { pods: undefined, error: undefined };
}

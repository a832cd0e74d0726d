import type { ApiClient } from './client.js';
import { serverEvents } from '@pilothouse/wire/wire-client';
import type { Target } from './types.js';

export interface LogOptions {
  container: string;
  follow: boolean;
  previous: boolean;
  tail?: number;
}

/**
 * Streams one container's log through GET /api/pods/{name}/logs (SSE: `line`, `end`, `error`),
 * handing each line to `onLine` until the stream ends or `options.signal` aborts.
 */
export async function streamLog(client: ApiClient, pod: Target, options: LogOptions & { signal: AbortSignal }, onLine: (line: string) => void): Promise<void> {
  const query = { namespace: pod.namespace, container: options.container, follow: options.follow, previous: options.previous, tail: options.tail ?? 200 };
  const response = await client.stream(`/api/pods/${encodeURIComponent(pod.name)}/logs`, query, options.signal);
  for await (const event of serverEvents(response.body as unknown as AsyncIterable<Uint8Array>)) {
    if (event.event === 'line') onLine((event.data as { line: string }).line);
    else if (event.event === 'error') throw new Error((event.data as { error: string }).error);
    else if (event.event === 'end') return;
  }
}

/** The containers of a pod (GET /api/k8s/pods/{name}), the default one first (kubectl.kubernetes.io/default-container). */
export async function podContainers(client: ApiClient, pod: Target): Promise<string[]> {
  const answer = await client.call('GET', '/api/k8s/{resource}/{name}', { path: { resource: 'pods', name: pod.name }, query: { namespace: pod.namespace } });
  // The contract's answer is any Kubernetes object; a pod's shape is the API server's.
  const object = answer as { metadata?: { annotations?: Record<string, string> }; spec?: { containers?: { name: string }[] } };
  const names = (object.spec?.containers ?? []).map((container) => container.name);
  const preferred = object.metadata?.annotations?.['kubectl.kubernetes.io/default-container'];
  return preferred && names.includes(preferred) ? [preferred, ...names.filter((name) => name !== preferred)] : names;
}

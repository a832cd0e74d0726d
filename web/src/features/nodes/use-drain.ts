import { useEffect, useRef, useState } from 'react';
import type { ApiClient } from '../../api/client';
import { useApi } from '../../shared/api-context';
import { pathOf } from '@pilothouse/wire/calls';
import { readSse } from '@pilothouse/wire/wire-client';
import { applyDrainEvent, initialProgress, type DrainProgress } from './drain-progress';
import type { DrainOptions } from './node-api';

export interface DrainState {
  draining: boolean;
  error: unknown;
  progress: DrainProgress | null;
  /** Starts the drain and follows its progress until it ends. */
  start(options: DrainOptions): Promise<void>;
  dismissError(): void;
}

function parsed(data: string): { data: unknown } | undefined {
  try {
    return { data: JSON.parse(data) as unknown };
  } catch {
    return undefined;
  }
}

/** Follows one drain: counts the node's pods, `POST /api/node/drain`, then the SSE progress of `GET /api/node/drain/{id}`. */
async function followDrain(
  client: ApiClient,
  { node, options }: { node: string; options: DrainOptions },
  signal: AbortSignal,
  onProgress: (update: (previous: DrainProgress | null) => DrainProgress) => void,
): Promise<void> {
  const expected = await client
    .call('GET', '/api/nodes/{name}/pods', { path: { name: node }, signal })
    .then((pods) => pods.total)
    .catch(() => 0);
  onProgress(() => initialProgress(expected));
  const started = await client.call('POST', '/api/node/drain', { body: { name: node, ...options }, signal });
  const response = await client.request('GET', pathOf('/api/node/drain/{id}', { id: started.id }), { accept: 'text/event-stream', signal });
  if (!response.body) return;
  await readSse(
    response.body,
    (event) => {
      const payload = parsed(event.data);
      if (payload) onProgress((previous) => applyDrainEvent(previous ?? initialProgress(expected), event.event, payload.data));
    },
    signal,
  );
}

/** The drain of one node with its live progress; `onEnd` runs when a drain ends (not when a new drain or leaving the tab aborts it). */
export function useDrain(node: string, onEnd: () => void): DrainState {
  const client = useApi();
  const [draining, setDraining] = useState(false);
  const [error, setError] = useState<unknown>();
  const [progress, setProgress] = useState<DrainProgress | null>(null);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const start = async (options: DrainOptions): Promise<void> => {
    setDraining(true);
    setError(undefined);
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    try {
      await followDrain(client, { node, options }, abort.signal, setProgress);
    } catch (failure) {
      if (!abort.signal.aborted) setError(failure);
    } finally {
      if (!abort.signal.aborted) {
        setDraining(false);
        onEnd();
      }
    }
  };
  return { draining, error, progress, start, dismissError: () => setError(undefined) };
}

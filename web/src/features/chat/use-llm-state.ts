import { useCallback } from 'react';
import type { Health } from '@pilothouse/wire/types';
import { useApi } from '../../shared/api-context';
import { usePolling } from '../../shared/use-polling';

/** The AI's state from `GET /api/health` (every 15 s): `available`, `unavailable` or `unconfigured` (no model connected). */
export function useLlmState(): string | undefined {
  const client = useApi();
  const load = useCallback((signal: AbortSignal) => client.json<Health>('GET', '/api/health', { signal }), [client]);
  return usePolling('health', load, 15_000).data?.llm;
}

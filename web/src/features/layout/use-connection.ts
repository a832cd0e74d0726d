import { onlineManager, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Health } from '@pilothouse/wire/types';
import { ApiError } from '@pilothouse/wire/wire-client';
import { useApi } from '../../shared/api-context';

/** How often the service's health is asked while it answers, and while it does not (to notice it back soon). */
const healthyEveryMs = 15_000;
const downEveryMs = 2_000;

/** A failure that means the service itself is not there (no answer, or a proxy in front of it saying so). */
export function isUnreachable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return error instanceof TypeError;
  return error.status === 0 || error.status === 502 || error.status === 503 || error.status === 504;
}

export interface Connection {
  health: Health | undefined;
  /** false while the service cannot be reached; undefined before the first answer. */
  reachable: boolean | undefined;
}

/**
 * The service's health (`GET /api/health`), and whether the service can be reached at all. While it cannot,
 * TanStack Query is told the app is offline: queries wait instead of failing one by one, and when the
 * service answers again every query refetches on its own (refetchOnReconnect), so no view stays in error.
 */
export function useConnection(): Connection {
  const client = useApi();
  const queries = useQueryClient();
  const health = useQuery({
    queryKey: ['connection', '/api/health'],
    queryFn: ({ signal }) => client.call('GET', '/api/health', { signal }),
    // Asked even while offline: it is what finds the service back.
    networkMode: 'always',
    retry: false,
    refetchInterval: (query) => (query.state.status === 'error' && isUnreachable(query.state.error) ? downEveryMs : healthyEveryMs),
  });
  const unreachable = health.isError && isUnreachable(health.error);
  const reachable = unreachable ? false : health.isSuccess ? true : undefined;
  useEffect(() => {
    if (reachable === undefined) return;
    const wasOnline = onlineManager.isOnline();
    onlineManager.setOnline(reachable);
    // Back: views that failed while it was away ask again (paused ones resume by themselves).
    if (reachable && !wasOnline) void queries.refetchQueries({ predicate: (query) => query.state.status === 'error' });
  }, [reachable, queries]);
  useEffect(() => () => onlineManager.setOnline(true), []);
  return { health: health.isError ? undefined : health.data, reachable };
}

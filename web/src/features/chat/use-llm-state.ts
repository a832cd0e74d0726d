import { useApiQuery } from '../../shared/use-api-query';

/** The AI's state from `GET /api/health` (every 15 s): `available`, `unavailable` or `unconfigured` (no model connected). */
export function useLlmState(): string | undefined {
  return useApiQuery('/api/health', { refetchInterval: 15_000, keepPrevious: true }).data?.llm;
}

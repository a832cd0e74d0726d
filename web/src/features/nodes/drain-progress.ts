/** Progress of one drain, built from the SSE events of `GET /api/node/drain/{id}`. */

export type PodStatus = 'evicted' | 'failed' | 'skipped';

export interface PodProgress {
  namespace: string;
  name: string;
  status: PodStatus;
  reason?: string;
}

export interface PodFailure {
  namespace: string;
  name: string;
  reason: string;
}

export interface DrainResult {
  node: string;
  status: 'completed' | 'failed' | 'refused';
  evicted: number;
  failed: PodFailure[];
  refused: PodFailure[];
  skipped: PodFailure[];
  message?: string;
}

export interface DrainProgress {
  cordoned: boolean;
  pods: PodProgress[];
  /** Pods expected (from the pods on the node when the drain started); 0 when unknown. */
  expected: number;
  result?: DrainResult;
}

export function initialProgress(expected = 0): DrainProgress {
  return { cordoned: false, pods: [], expected };
}

/** Applies one SSE event (name and parsed data); unknown events leave the progress as it is. */
export function applyDrainEvent(progress: DrainProgress, event: string, data: unknown): DrainProgress {
  if (event === 'cordoned') return { ...progress, cordoned: true };
  if (event === 'pod') {
    const pod = data as PodProgress;
    const others = progress.pods.filter((item) => item.namespace !== pod.namespace || item.name !== pod.name);
    return { ...progress, pods: [...others, { namespace: pod.namespace, name: pod.name, status: pod.status, reason: pod.reason }] };
  }
  if (event === 'result') {
    const result = data as DrainResult;
    return { ...progress, result: { ...result, failed: result.failed ?? [], refused: result.refused ?? [], skipped: result.skipped ?? [] } };
  }
  return progress;
}

/** Done pods (evicted + failed + skipped) against the total seen so far. */
export function progressCounts(progress: DrainProgress): { done: number; total: number } {
  const done = progress.pods.length;
  const result = progress.result;
  if (result) {
    const total = Math.max(done, result.evicted + result.failed.length + result.skipped.length);
    return { done: result.status === 'refused' ? done : total, total };
  }
  return { done, total: Math.max(done, progress.expected) };
}

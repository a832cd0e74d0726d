import type { ResourceType } from '../kube/discovery.js';
import type { WatchedKind } from './watched-kinds.js';

/** How long a kind the cluster does not serve (Argo CD not installed) waits before discovery is asked again. */
export const unservedRecheckMs = 5 * 60_000;

/** Whether discovery lists the kind (same group, version and plural). */
function serves(types: readonly ResourceType[], kind: WatchedKind): boolean {
  return types.some((type) => type.group === kind.group && type.version === kind.version && type.plural === kind.plural);
}

/**
 * Splits the kinds to watch now from the optional ones (another project's: Argo CD, Flux) the cluster does not serve.
 * Without discovery, or when it fails, every kind is watched (a kind that is not served then reads as empty).
 */
export async function servedKinds(
  kinds: readonly WatchedKind[],
  served: (() => Promise<ResourceType[]>) | undefined,
): Promise<{ now: WatchedKind[]; later: WatchedKind[] }> {
  const optional = kinds.filter((kind) => kind.optional);
  if (!served || optional.length === 0) return { now: [...kinds], later: [] };
  const types = await served().catch(() => undefined);
  if (!types) return { now: [...kinds], later: [] };
  return { now: kinds.filter((kind) => !kind.optional || serves(types, kind)), later: optional.filter((kind) => !serves(types, kind)) };
}

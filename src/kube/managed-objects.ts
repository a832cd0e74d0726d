import { managedBy, managedByText, type ManagedBy } from '@pilothouse/wire/managed-by';
import { objectPath, type ResourceType } from './discovery.js';
import type { RestClient } from './rest-client.js';

/** An object a GitOps controller manages, and what that means for a manual change (the approval card's note). */
export interface ManagedObject {
  object: { kind: string; namespace?: string; name: string };
  manager: ManagedBy;
  /** `A manual change to deployment/web -n shop will be reverted by Argo CD Application shop.` */
  note: string;
}

/** What the lookup reads with: the cluster's discovery and a client as the caller (they see only what they may read). */
export interface ManagedLookup {
  resolve(resource: string): Promise<ResourceType>;
  rest: RestClient;
}

interface Metadata {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
}

/** An approval card waits for this lookup: a slow cluster leaves the note out rather than holding the card. */
const lookupTimeoutMs = 2000;

async function managedObject(lookup: ManagedLookup, target: { resource: string; name: string; namespace?: string }): Promise<ManagedObject | undefined> {
  const type = await lookup.resolve(target.resource);
  const namespace = type.namespaced ? (target.namespace ?? 'default') : undefined;
  const found = await lookup.rest.json<Metadata>('GET', objectPath(type, target.name, namespace), {
    target: type.plural,
    signal: AbortSignal.timeout(lookupTimeoutMs),
  });
  const manager = managedBy(found.metadata);
  if (!manager) return undefined;
  const object = { kind: type.kind, ...(namespace ? { namespace } : {}), name: target.name };
  const where = `${type.kind.toLowerCase()}/${target.name}${namespace ? ` -n ${namespace}` : ''}`;
  return { object, manager, note: `A manual change to ${where} will be reverted by ${managedByText(manager)}.` };
}

/**
 * The GitOps managers of the objects a command names (src/tools/kubectl-targets.ts), read as the caller. An object
 * they may not read, that does not exist, or of a kind the cluster does not serve, is simply left out.
 */
export async function managedObjects(
  lookup: ManagedLookup,
  targets: ReadonlyArray<{ resource: string; name: string; namespace?: string }>,
): Promise<ManagedObject[]> {
  const found = await Promise.all(targets.map((target) => managedObject(lookup, target).catch(() => undefined)));
  return found.filter((entry): entry is ManagedObject => entry !== undefined);
}

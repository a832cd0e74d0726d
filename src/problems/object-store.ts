import type { ObjectRef } from './finding.js';
import type { KubeThing } from './shapes.js';

/** `kind|namespace|name`: the key of one object in the store. */
export function objectKey(ref: ObjectRef): string {
  return `${ref.kind}|${ref.namespace ?? ''}|${ref.name}`;
}

export function refOf(object: KubeThing): ObjectRef {
  return { kind: object.kind ?? '', ...(object.metadata?.namespace ? { namespace: object.metadata.namespace } : {}), name: object.metadata?.name ?? '' };
}

/** What analyzers read of the cluster: the watched objects by kind and namespace, and the Events of each object. */
export interface ObjectReader {
  get(kind: string, namespace: string | undefined, name: string): KubeThing | undefined;
  /** Objects of a kind (in one namespace, or all). */
  list(kind: string, namespace?: string): KubeThing[];
  /** The Events whose involvedObject is the object. */
  eventsOf(ref: ObjectRef): KubeThing[];
  /** Whether the kind is listed at all (a kind the cluster does not serve, or the service may not list, is not). */
  watching(kind: string): boolean;
}

/** The watched objects, indexed by kind, namespace and name, and Events by the object they are about. */
export class ObjectStore implements ObjectReader {
  private readonly kinds = new Map<string, Map<string, Map<string, KubeThing>>>();
  private readonly events = new Map<string, Map<string, KubeThing>>();
  private readonly listed = new Set<string>();

  watching(kind: string): boolean {
    return this.listed.has(kind);
  }

  /** Marks a kind as listed (its first list answered). */
  markListed(kind: string): void {
    this.listed.add(kind);
  }

  get(kind: string, namespace: string | undefined, name: string): KubeThing | undefined {
    return this.kinds
      .get(kind)
      ?.get(namespace ?? '')
      ?.get(name);
  }

  list(kind: string, namespace?: string): KubeThing[] {
    const byNamespace = this.kinds.get(kind);
    if (!byNamespace) return [];
    if (namespace !== undefined) return [...(byNamespace.get(namespace)?.values() ?? [])];
    return [...byNamespace.values()].flatMap((names) => [...names.values()]);
  }

  eventsOf(ref: ObjectRef): KubeThing[] {
    return [...(this.events.get(objectKey(ref))?.values() ?? [])];
  }

  /** Stores an object; returns the one it replaced. */
  put(object: KubeThing): KubeThing | undefined {
    const ref = refOf(object);
    if (object.kind === 'Event') this.indexEvent(object, true);
    let byNamespace = this.kinds.get(ref.kind);
    if (!byNamespace) this.kinds.set(ref.kind, (byNamespace = new Map()));
    let names = byNamespace.get(ref.namespace ?? '');
    if (!names) byNamespace.set(ref.namespace ?? '', (names = new Map()));
    const previous = names.get(ref.name);
    names.set(ref.name, object);
    return previous;
  }

  /** Removes an object; returns the one removed. */
  delete(object: KubeThing): KubeThing | undefined {
    const ref = refOf(object);
    const namespace = ref.namespace ?? '';
    const names = this.kinds.get(ref.kind)?.get(namespace);
    if (!names) return undefined;
    const previous = names.get(ref.name);
    names.delete(ref.name);
    if (names.size === 0) this.kinds.get(ref.kind)?.delete(namespace);
    if (previous?.kind === 'Event') this.indexEvent(previous, false);
    return previous;
  }

  /** Every object of a kind. */
  all(kind: string): KubeThing[] {
    return this.list(kind);
  }

  /** How many objects of each kind are stored. */
  sizes(): Map<string, number> {
    const sizes = new Map<string, number>();
    for (const [kind, byNamespace] of this.kinds)
      sizes.set(
        kind,
        [...byNamespace.values()].reduce((sum, names) => sum + names.size, 0),
      );
    return sizes;
  }

  private indexEvent(event: KubeThing, present: boolean): void {
    const involved = event.involvedObject;
    if (!involved?.kind || !involved.name) return;
    const key = objectKey({ kind: involved.kind, namespace: involved.namespace, name: involved.name });
    const eventName = `${namespaceText(event)}/${textOf(event.metadata?.name)}`;
    if (present) {
      const byName = this.events.get(key) ?? new Map<string, KubeThing>();
      this.events.set(key, byName.set(eventName, event));
      return;
    }
    const byName = this.events.get(key);
    byName?.delete(eventName);
    if (byName?.size === 0) this.events.delete(key);
  }
}

function namespaceText(object: KubeThing): string {
  return object.metadata?.namespace ?? '';
}

function textOf(value: string | undefined): string {
  return value ?? '';
}

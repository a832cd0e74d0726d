import { createHash } from 'node:crypto';
import { inView, type CacheView } from '../cache/cache-manager.js';
import type { ResourceType } from '../discovery.js';
import type { ResourceItem } from '../cache/table.js';

/**
 * The namespace our policy sees a listed object in: its own; for the kind whose objects are namespaces (the
 * Namespace `x` is in namespace x, as the API server's request info and src/rbac/request-info.ts read
 * `namespaces/x`), its name; else none.
 */
export function policyNamespaceOf(type: ResourceType): (item: Pick<ResourceItem, 'name' | 'namespace'>) => string | undefined {
  if (type.namespaced) return (item) => item.namespace ?? undefined;
  return type.plural === 'namespaces' ? (item) => item.name : () => undefined;
}

/**
 * What one caller sees of a shared cache: the namespaces the cluster lets them list (`view.access`) that our
 * policy does not hide (`hidden`, plain data handed in by the HTTP layer: kube does not know the policy).
 */
export class Visibility {
  private readonly namespaceOf: (item: Pick<ResourceItem, 'name' | 'namespace'>) => string | undefined;

  constructor(
    readonly view: CacheView,
    private readonly type: ResourceType,
    private readonly hidden: ReadonlySet<string> | undefined,
  ) {
    this.namespaceOf = policyNamespaceOf(type);
  }

  /** The same caller with another access set (after an RBAC change). */
  with(view: CacheView): Visibility {
    return new Visibility(view, this.type, this.hidden);
  }

  /** Whether our policy lets the caller see objects in `namespace` (undefined: not in any namespace). */
  private shown(namespace: string | undefined): boolean {
    return !this.hidden || namespace === undefined || !this.hidden.has(namespace);
  }

  /** Whether the caller sees the item (a live list's change). */
  sees(item: ResourceItem): boolean {
    return inView(this.view.access, item.namespace ?? undefined) && this.shown(this.namespaceOf(item));
  }

  /** The items our policy leaves the caller (the cluster's access set is applied to rows before). */
  shownItems(items: ResourceItem[]): ResourceItem[] {
    return this.hidden ? items.filter((item) => this.shown(this.namespaceOf(item))) : items;
  }

  /** Equal for callers with the same access set (a live list's access changed when this does). */
  accessKey(): string {
    const { access } = this.view;
    return access.all ? '*' : [...access.namespaces].sort().join('\u0000');
  }

  /**
   * The rows of a shared cache a caller sees depend only on the namespaces they see in it (and for a kind
   * whose objects are namespaces, which of them). Callers who see the same namespaces of the cache are one
   * class and share one built list; the key is that set (or `*` for all of it).
   */
  classKey(): string {
    const { access, cache } = this.view;
    if (access.all && !this.hidden) return '*';
    const present = this.type.namespaced
      ? [...cache.namespaces()]
      : cache.snapshot().map((row) => this.namespaceOf({ name: row.object?.metadata?.name ?? '' }));
    const seen = present.filter((namespace) => namespace !== undefined && inView(access, namespace) && this.shown(namespace));
    const outside = this.shown(undefined);
    if (seen.length === present.length && outside) return '*';
    const hash = createHash('sha256');
    for (const namespace of (seen as string[]).sort()) hash.update(`${namespace}\u0000`);
    return `${String(outside)}:${hash.digest('base64url')}`;
  }
}

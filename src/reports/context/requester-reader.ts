import { AppError, forbidden } from '../../errors.js';
import type { KubeIdentityClient } from '../../kube/clients.js';
import type { PolicyEngine } from '../../rbac/policy-engine.js';
import type { Principal } from '../../rbac/principal.js';
import type { RequestAttributes } from '../../rbac/request-attributes.js';
import { collectionPathOf, displayName, type ResourceRef } from '../document/resource-refs.js';

/** Any object as the API server sends it; the analysis reads only what it names. */
export interface RawObject {
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string>; managedFields?: unknown };
}

/** What the reader needs: the requester's own cluster client and the one policy decision. */
export interface ReaderDeps {
  /** The requester's cluster identity (impersonated when `authorization.impersonation` is on). */
  client: KubeIdentityClient;
  policy: Pick<PolicyEngine, 'authorize'>;
}

export interface ReaderScope {
  principal: Principal;
  /** One namespace, or undefined for the whole cluster. */
  namespace?: string;
  signal: AbortSignal;
}

/** Codes of a refusal that concern one namespace only (the namespace is left out, the read goes on). */
const namespaceRefusals = new Set(['resource_role', 'own_namespace']);
const pageSize = 500;
const parallelNamespaces = 8;

/** A list request's attributes, as the policy decides it. */
export function listAttributes(ref: ResourceRef, namespace: string): RequestAttributes {
  return {
    verb: 'list',
    isResourceRequest: true,
    path: collectionPathOf(ref, namespace),
    apiGroup: ref.group,
    apiVersion: ref.version,
    resource: ref.resource,
    subresource: '',
    namespace: ref.namespaced ? namespace : '',
    name: '',
    dryRun: false,
  };
}

function namespaceOf(ref: ResourceRef, item: RawObject): string | undefined {
  if (ref.namespaced) return item.metadata?.namespace;
  return ref.resource === 'namespaces' && ref.group === '' ? item.metadata?.name : undefined;
}

/** Drops what no analysis reads and what may repeat applied values (managed fields, annotations). */
function slim<T>(item: RawObject): T {
  if (item.metadata) {
    delete item.metadata.managedFields;
    delete item.metadata.annotations;
  }
  return item as T;
}

/**
 * Every read of a report, made as the requester: with the requester's cluster identity and
 * filtered by the one policy decision. Namespaces the policy hides for any collection the report
 * reads are left out of the whole report ({@link omittedNamespaces}); so are namespaces whose lists
 * the cluster refuses the requester's identity.
 */
export class RequesterReader {
  private readonly omitted = new Set<string>();
  private readonly refused = new Map<string, string>();
  private namespaceList?: Promise<string[]>;

  constructor(
    private readonly deps: ReaderDeps,
    readonly scope: ReaderScope,
  ) {}

  /** Takes the policy decisions of every collection the report reads, before any read. */
  async prepare(collections: readonly ResourceRef[]): Promise<void> {
    for (const ref of collections) {
      const decision = await this.deps.policy.authorize(this.scope.principal, listAttributes(ref, this.scope.namespace ?? ''), 'direct');
      for (const namespace of decision.hiddenNamespaces ?? []) this.omitted.add(namespace);
      if (decision.allowed) continue;
      if (this.scope.namespace && ref.namespaced && namespaceRefusals.has(decision.code)) this.omitted.add(this.scope.namespace);
      else this.refused.set(displayName(ref), decision.reason);
    }
  }

  /** Namespaces left out of the report, sorted. */
  omittedNamespaces(): string[] {
    return [...this.omitted].sort();
  }

  /** Whether objects of `namespace` may appear (cluster-scoped objects always may). */
  visible(namespace: string | undefined): boolean {
    return namespace === undefined || !this.omitted.has(namespace);
  }

  /** The policy's refusal of a collection, if it refused. */
  refusalOf(ref: ResourceRef): string | undefined {
    return this.refused.get(displayName(ref));
  }

  /** The namespaces in scope that the requester may view. */
  namespaces(): Promise<string[]> {
    this.namespaceList ??= this.readNamespaces();
    return this.namespaceList;
  }

  /** Lists a collection in scope as the requester; objects of omitted namespaces are left out. */
  async list<T extends RawObject>(ref: ResourceRef): Promise<T[]> {
    const refusal = this.refusalOf(ref);
    if (refusal) throw forbidden(refusal, { resource: displayName(ref) });
    const namespace = this.scope.namespace;
    if (namespace && ref.namespaced && !this.visible(namespace)) return [];
    const items = ref.namespaced && !namespace ? await this.listEverywhere(ref) : await this.listPaged(ref, namespace);
    return items.filter((item) => this.visible(namespaceOf(ref, item))).map((item) => slim<T>(item));
  }

  private async readNamespaces(): Promise<string[]> {
    if (this.scope.namespace) return this.visible(this.scope.namespace) ? [this.scope.namespace] : [];
    const items = await this.list<RawObject>({ group: '', version: 'v1', resource: 'namespaces', namespaced: false });
    return items.map((item) => item.metadata?.name ?? '').filter((name) => name !== '');
  }

  /** All namespaces at once; when the cluster refuses that, namespace by namespace (refused ones are left out). */
  private async listEverywhere(ref: ResourceRef): Promise<RawObject[]> {
    try {
      return await this.listPaged(ref, undefined);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'FORBIDDEN') throw error;
      return this.listPerNamespace(ref, error);
    }
  }

  private async listPerNamespace(ref: ResourceRef, refusal: AppError): Promise<RawObject[]> {
    const namespaces = await this.namespaces();
    const results: RawObject[][] = [];
    let refusedCount = 0;
    for (let start = 0; start < namespaces.length; start += parallelNamespaces) {
      const batch = namespaces.slice(start, start + parallelNamespaces);
      const lists = await Promise.all(batch.map((namespace) => this.listPaged(ref, namespace).catch((error: unknown) => refusedIn(namespace, error))));
      for (const list of lists) {
        if (Array.isArray(list)) {
          results.push(list);
        } else {
          this.omitted.add(list.refused);
          refusedCount += 1;
        }
      }
    }
    if (refusedCount === namespaces.length) throw refusal;
    return results.flat();
  }

  private async listPaged(ref: ResourceRef, namespace: string | undefined): Promise<RawObject[]> {
    const items: RawObject[] = [];
    let next: string | undefined;
    do {
      const page = await this.deps.client.rest.json<{ items?: RawObject[]; metadata?: { continue?: string } }>('GET', collectionPathOf(ref, namespace), {
        query: { limit: pageSize, continue: next },
        signal: this.scope.signal,
        target: displayName(ref),
      });
      for (const item of page.items ?? []) items.push(slim(item));
      next = page.metadata?.continue || undefined;
    } while (next);
    return items;
  }
}

/** A per-namespace list the cluster refused: the namespace is left out; other failures fail the read. */
function refusedIn(namespace: string, error: unknown): { refused: string } {
  if (error instanceof AppError && error.code === 'FORBIDDEN') return { refused: namespace };
  throw error;
}

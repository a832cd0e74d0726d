import { notFound } from '../errors.js';
import type { RestClient } from './rest-client.js';

/** One resource kind the cluster serves. */
export interface ResourceType {
  group: string;
  version: string;
  kind: string;
  plural: string;
  singular: string;
  shortNames: string[];
  namespaced: boolean;
  verbs: string[];
}

interface DiscoveryResource {
  resource: string;
  responseKind?: { group?: string; version?: string; kind?: string };
  scope: 'Cluster' | 'Namespaced';
  singularResource?: string;
  shortNames?: string[];
  verbs?: string[];
}

interface DiscoveryGroupList {
  items?: { metadata?: { name?: string }; versions?: { version: string; resources?: DiscoveryResource[] }[] }[];
}

const aggregatedAccept =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

function toResourceType(group: string, version: string, resource: DiscoveryResource): ResourceType {
  return {
    group,
    version,
    kind: resource.responseKind?.kind ?? resource.resource,
    plural: resource.resource,
    singular: resource.singularResource ?? resource.resource.replace(/s$/, ''),
    shortNames: resource.shortNames ?? [],
    namespaced: resource.scope === 'Namespaced',
    verbs: resource.verbs ?? [],
  };
}

/** Turns an aggregated discovery document into resource types (preferred version first per group). */
export function parseDiscovery(document: DiscoveryGroupList): ResourceType[] {
  return (document.items ?? []).flatMap((group) => {
    const preferred = group.versions?.[0];
    if (!preferred) return [];
    const groupName = group.metadata?.name ?? '';
    return (preferred.resources ?? []).map((resource) => toResourceType(groupName, preferred.version, resource));
  });
}

/** The API path of a collection (namespace optional). */
export function collectionPath(type: ResourceType, namespace?: string): string {
  const base = type.group ? `/apis/${type.group}/${type.version}` : `/api/${type.version}`;
  return namespace && type.namespaced ? `${base}/namespaces/${namespace}/${type.plural}` : `${base}/${type.plural}`;
}

/** The API path of one object. */
export function objectPath(type: ResourceType, name: string, namespace?: string): string {
  return `${collectionPath(type, namespace)}/${encodeURIComponent(name)}`;
}

/**
 * Resolves names like kubectl does (plural, singular, short name, kind, `plural.group`)
 * from aggregated discovery, refreshed every `ttlMs` and on a miss (new CRDs).
 */
export class Discovery {
  private types: ResourceType[] = [];
  private loadedAt = 0;
  private loading?: Promise<void>;

  constructor(
    private readonly rest: RestClient,
    private readonly ttlMs = 30_000,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Finds the resource type for `name`; NOT_FOUND naming it when the cluster serves no such kind. */
  async resolve(name: string): Promise<ResourceType> {
    if (this.clock() - this.loadedAt > this.ttlMs) await this.refresh();
    let found = this.find(name);
    if (!found && this.clock() - this.loadedAt > 1000) {
      await this.refresh();
      found = this.find(name);
    }
    if (!found) throw notFound(`the cluster does not serve a resource type "${name}"`, { resource: name });
    return found;
  }

  /** All known types (after a refresh when stale). */
  async all(): Promise<ResourceType[]> {
    if (this.clock() - this.loadedAt > this.ttlMs) await this.refresh();
    return this.types;
  }

  async refresh(): Promise<void> {
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    await this.loading;
  }

  private async load(): Promise<void> {
    const [core, groups] = await Promise.all([
      this.rest.json<DiscoveryGroupList>('GET', '/api', { accept: aggregatedAccept }),
      this.rest.json<DiscoveryGroupList>('GET', '/apis', { accept: aggregatedAccept }),
    ]);
    this.types = [...parseDiscovery(core), ...parseDiscovery(groups)].filter((type) => !type.plural.includes('/'));
    this.loadedAt = this.clock();
  }

  private find(name: string): ResourceType | undefined {
    const lower = name.toLowerCase();
    const [base, ...groupParts] = lower.split('.');
    const group = groupParts.join('.');
    const matches = this.types.filter(
      (type) =>
        (!group || type.group === group) &&
        (type.plural === base || type.singular === base || type.shortNames.includes(base ?? '') || type.kind.toLowerCase() === base),
    );
    // Prefer the core group and built-ins (like kubectl's priority for ambiguous names), then our own kinds.
    return (
      matches.find((type) => type.group === '') ??
      matches.find((type) => !type.group.includes('.')) ??
      matches.find((type) => type.group === 'pilothouse.dev') ??
      matches[0]
    );
  }
}

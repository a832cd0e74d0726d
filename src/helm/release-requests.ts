import * as yaml from 'js-yaml';
import { validation } from '../errors.js';
import type { ResourceType } from '../kube/discovery.js';
import type { RequestAttributes } from '../rbac/request-attributes.js';

/** What a helm route does to a release. */
export type HelmAction = 'read' | 'install' | 'upgrade' | 'rollback' | 'uninstall';

/** One object of a rendered or stored manifest, as authorization sees it. */
export interface ManifestObject {
  apiVersion: string;
  kind: string;
  /** `metadata.namespace`, when the chart sets one. */
  namespace?: string;
  /** A helm hook (created when its event runs, whatever the action). */
  hook: boolean;
}

/**
 * The verbs each action amounts to. The release record is a Secret in the release namespace
 * (`sh.helm.release.v1.<name>.v<revision>`): read with get/list, a new revision created and the
 * previous one updated. The chart's objects are created (install), created or patched (upgrade,
 * rollback) or deleted (uninstall); hooks are created.
 */
const releaseVerbs: Record<HelmAction, readonly string[]> = {
  read: ['get', 'list'],
  install: ['create'],
  upgrade: ['create', 'update'],
  rollback: ['create', 'update'],
  uninstall: ['delete'],
};
const objectVerbs: Record<HelmAction, readonly string[]> = {
  read: [],
  install: ['create'],
  upgrade: ['create', 'patch'],
  rollback: ['create', 'patch'],
  uninstall: ['delete'],
};
const hookVerbs: readonly string[] = ['create'];

interface RawObject {
  apiVersion?: unknown;
  kind?: unknown;
  items?: unknown;
  metadata?: { namespace?: unknown; annotations?: Record<string, unknown> };
}

function namespaceOf(raw: RawObject): string | undefined {
  const namespace = raw.metadata?.namespace;
  return typeof namespace === 'string' && namespace !== '' ? namespace : undefined;
}

function toObjects(document: unknown): ManifestObject[] {
  if (!document || typeof document !== 'object') return [];
  const raw = document as RawObject;
  if (typeof raw.kind !== 'string' || typeof raw.apiVersion !== 'string') return [];
  if (raw.kind.endsWith('List') && Array.isArray(raw.items)) return raw.items.flatMap(toObjects);
  return [{ apiVersion: raw.apiVersion, kind: raw.kind, namespace: namespaceOf(raw), hook: raw.metadata?.annotations?.['helm.sh/hook'] !== undefined }];
}

/** The objects of a multi-document manifest (helm template, helm get manifest/hooks). */
export function manifestObjects(manifest: string): ManifestObject[] {
  let documents: unknown[];
  try {
    documents = yaml.loadAll(manifest);
  } catch {
    throw validation('the chart rendered a manifest that is not YAML', {});
  }
  return documents.flatMap(toObjects);
}

function request(verb: string, type: { apiGroup: string; resource: string }, namespace: string): RequestAttributes {
  return {
    verb,
    isResourceRequest: true,
    path: '',
    apiGroup: type.apiGroup,
    apiVersion: '',
    resource: type.resource,
    subresource: '',
    namespace,
    name: '',
    dryRun: false,
  };
}

/** The resource of an object's kind through discovery; a kind discovery does not know keeps its lowercase name. */
function resourceOf(object: ManifestObject, types: readonly ResourceType[]): { apiGroup: string; resource: string; namespaced: boolean } {
  const apiGroup = object.apiVersion.includes('/') ? (object.apiVersion.split('/')[0] ?? '') : '';
  const type = types.find((candidate) => candidate.group === apiGroup && candidate.kind === object.kind);
  return type ? { apiGroup, resource: type.plural, namespaced: type.namespaced } : { apiGroup, resource: object.kind.toLowerCase(), namespaced: true };
}

/**
 * The Kubernetes requests a helm action on a release amounts to: its release Secrets in the
 * release namespace, plus each kind of the manifest in its namespace (one request per verb,
 * resource and namespace). Each is decided by the one policy; any refusal refuses the action.
 */
export function releaseRequests(
  action: HelmAction,
  namespace: string,
  objects: readonly ManifestObject[],
  types: readonly ResourceType[],
): RequestAttributes[] {
  const requests = releaseVerbs[action].map((verb) => request(verb, { apiGroup: '', resource: 'secrets' }, namespace));
  for (const object of objects) {
    const type = resourceOf(object, types);
    const where = type.namespaced ? (object.namespace ?? namespace) : '';
    for (const verb of object.hook ? hookVerbs : objectVerbs[action]) requests.push(request(verb, type, where));
  }
  const seen = new Set<string>();
  return requests.filter((entry) => {
    const key = `${entry.verb} ${entry.apiGroup}/${entry.resource} ${entry.namespace}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

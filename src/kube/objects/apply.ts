import { validation } from '../../errors.js';
import type { KubeIdentityClient } from '../clients.js';
import { objectPath, type ResourceType } from '../discovery.js';
import type { KubeObject } from './resources.js';

/** The field manager of every server-side apply Pilothouse sends. */
export const fieldManager = 'pilothouse';

/** One server-side apply: the object, where it goes, and how. */
export interface ApplyRequest {
  type: ResourceType;
  object: KubeObject;
  /** The object's namespace (namespaced kinds only). */
  namespace: string | undefined;
  dryRun: boolean;
  /** Take over fields other managers own instead of failing with a conflict. */
  force: boolean;
}

export interface ApplyResult {
  object: KubeObject;
  /** True when the apply created the object (201). */
  created: boolean;
}

/** The version the object names, when it is a version of the resolved type's group. */
function versionFor(type: ResourceType, object: KubeObject): string {
  const apiVersion = object.apiVersion ?? '';
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
  if (group !== type.group || object.kind !== type.kind || !version) {
    const expected = type.group ? `${type.group}/<version>` : type.version;
    throw validation(`the object is ${apiVersion || '?'} ${object.kind ?? '?'}, not ${expected} ${type.kind}`, {
      fields: { kind: `must be ${type.kind}`, apiVersion: `must be ${expected}` },
    });
  }
  return version;
}

/** The body sent: the object as given, in its namespace, without the server-owned managedFields. */
function applyBody(object: KubeObject, namespace: string | undefined): KubeObject {
  const metadata = { ...object.metadata };
  delete metadata.managedFields;
  if (namespace) metadata.namespace = namespace;
  return { ...object, metadata };
}

/**
 * Server-side apply (`kubectl apply --server-side --field-manager=pilothouse`) with the caller's
 * client. A field owned by another manager, or a `metadata.resourceVersion` the object no longer
 * has, fails with CONFLICT (409) as src/kube/errors.ts maps every 409: `details.reason` `conflict`,
 * `details.conflicts` `[{field, manager, message}]`.
 */
export async function applyObject(client: KubeIdentityClient, request: ApplyRequest): Promise<ApplyResult> {
  const { type, object, namespace } = request;
  const name = object.metadata?.name ?? '';
  const versioned = { ...type, version: versionFor(type, object) };
  const response = await client.rest.raw('PATCH', objectPath(versioned, name, namespace), {
    query: { fieldManager, force: request.force || undefined, dryRun: request.dryRun ? 'All' : undefined },
    contentType: 'application/apply-patch+yaml',
    body: applyBody(object, namespace),
    target: `${type.plural}/${name}`,
  });
  return { object: (await response.json()) as KubeObject, created: response.status === 201 };
}

import { ApiError, type ApiClient } from '../../api/client';
import { pathOf, type ResponseBody } from '@pilothouse/wire/calls';
import type { ApplyResult } from '@pilothouse/wire/types';
import { readJson } from '@pilothouse/wire/wire-client';

/** A field another manager owns, as the apply route lists it in a 409's `details.conflicts`. */
export interface Conflict {
  field: string;
  manager: string;
}

/** Sends YAML to `POST /api/k8s/{resource}/apply` (server-side apply; `dryRun` changes nothing). */
export async function applyManifest(client: ApiClient, resource: string, text: string, options: { dryRun: boolean; force?: boolean }): Promise<ApplyResult> {
  // The manifest goes as YAML text (the route takes YAML or JSON), so this is a request, not a JSON call.
  const response = await client.request('POST', pathOf('/api/k8s/{resource}/apply', { resource }), {
    query: { dryRun: options.dryRun, force: options.force || undefined },
    text,
    contentType: 'application/yaml',
  });
  return (await readJson(response)) as ResponseBody<'POST', '/api/k8s/{resource}/apply'>;
}

/** The conflicting fields of a failed apply (empty for other failures). */
export function conflictsOf(error: unknown): Conflict[] {
  if (!(error instanceof ApiError) || error.status !== 409) return [];
  const listed = error.details.conflicts;
  return Array.isArray(listed) ? listed.map((entry: Conflict) => ({ field: String(entry.field ?? ''), manager: String(entry.manager ?? '') })) : [];
}

/** The kind a manifest starts with in "Create from YAML" (the namespace filled in for namespaced kinds). */
export function manifestTemplate(resource: string, namespace: string): string {
  const templates: Record<string, string> = {
    configmaps: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: \n  namespace: {ns}\ndata:\n  key: value\n',
    secrets: 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: \n  namespace: {ns}\ntype: Opaque\nstringData:\n  key: value\n',
    deployments:
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: \n  namespace: {ns}\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: example}\n  template:\n    metadata:\n      labels: {app: example}\n    spec:\n      containers:\n      - name: app\n        image: nginx\n',
    services: 'apiVersion: v1\nkind: Service\nmetadata:\n  name: \n  namespace: {ns}\nspec:\n  selector: {app: example}\n  ports:\n  - port: 80\n',
    pods: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: \n  namespace: {ns}\nspec:\n  containers:\n  - name: app\n    image: busybox\n',
    namespaces: 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: \n',
  };
  const template = templates[resource] ?? 'apiVersion: \nkind: \nmetadata:\n  name: \n  namespace: {ns}\n';
  return template.replace('{ns}', namespace || 'default');
}

import { z } from 'zod';
import { requireNamespace, listResources, getObject, toYaml, describeObject, deleteObject, type KubeObject } from '../../kube/resources.js';
import { maskDescribe, maskObject, secretKindOf } from '../../rbac/secret-masking.js';
import { secretVisibility } from '../../rbac/secret-visibility.js';
import type { ResourceType } from '../../kube/discovery.js';
import type { KubeIdentityClient } from '../../kube/clients.js';
import { namespaceSchema, objectNameSchema, parseWith } from '../validate.js';
import { route, type AppContext, type RouteSpec } from '../types.js';
import { audited } from '../audit-context.js';
import { visibleItems } from '../visible-items.js';
import { auditedRead, type AuditReadsDeps } from '../audit-reads.js';
import type { CacheManager } from '../../kube/cache-manager.js';
import type { Discovery } from '../../kube/discovery.js';
import type { IdentityResolver } from '../../rbac/identities.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface ResourcesRouteDeps extends AuditReadsDeps {
  caches: CacheManager;
  discovery: Discovery;
  identities: IdentityResolver;
}

const listQuery = z.object({ namespace: namespaceSchema.optional() });
const objectParams = z.object({ name: objectNameSchema });
const resourceParam = z.string().regex(/^[a-zA-Z][a-zA-Z0-9.-]*$/, 'must be a resource type name such as pods or deployments.apps');

interface ObjectTarget {
  type: ResourceType;
  name: string;
  namespace: string | undefined;
}

async function resolveType(deps: ResourcesRouteDeps, context: AppContext): Promise<ResourceType> {
  const resource = parseWith(resourceParam, context.params.resource, 'resource type');
  return deps.discovery.resolve(resource);
}

async function resolveTarget(deps: ResourcesRouteDeps, context: AppContext): Promise<ObjectTarget> {
  const { namespace } = parseWith(listQuery, context.query, 'query');
  const { name } = parseWith(objectParams, { name: context.params.name }, 'path');
  const type = await resolveType(deps, context);
  return { type, name, namespace: requireNamespace(type, namespace) };
}

/** Whether reading objects of this type reveals secret values (Secrets, MCPServers). */
function sensitiveType(type: ResourceType): boolean {
  return secretKindOf({ kind: type.kind, apiVersion: type.group ? `${type.group}/${type.version}` : type.version }) !== undefined;
}

/** Reads one object (audited per `audit.include_reads`) and masks it for the caller. */
async function readObject(deps: ResourcesRouteDeps, context: AppContext, target: ObjectTarget, output: string): Promise<KubeObject> {
  const read = { resource: `${target.type.kind.toLowerCase()}/${target.name}`, command: `${kubectlLine('get', target)} -o ${output}`, sensitive: sensitiveType(target.type) };
  const object = await auditedRead(deps, context, read, () => getObject(deps.identities.clientFor(context.state.principal), target.type, target.name, target.namespace));
  return maskObject(object, secretVisibility(context.state.principal));
}

/** Cluster resources: list, get, yaml, describe, delete for any kind the cluster serves. */
export function resourceRoutes(deps: ResourcesRouteDeps): RouteSpec[] {
  const client = (context: AppContext): KubeIdentityClient => deps.identities.clientFor(context.state.principal);
  return [
    route({
      method: 'GET',
      path: '/api/k8s/:resource',
      permission: 'view',
      resourceKind: ':resource',
      summary: 'List resources of a kind (all namespaces when namespace is absent)',
      query: listQuery,
      handler: async (context) => {
        const { namespace } = parseWith(listQuery, context.query, 'query');
        const type = await resolveType(deps, context);
        const listed = await listResources(deps.caches, client(context), type, namespace);
        const items = visibleItems(context, listed);
        context.body = { items, total: items.length };
      },
    }),
    route({
      method: 'GET',
      path: '/api/k8s/:resource/:name',
      permission: 'view',
      resourceKind: ':resource',
      summary: 'One resource as JSON',
      query: listQuery,
      handler: async (context) => {
        context.body = await readObject(deps, context, await resolveTarget(deps, context), 'json');
      },
    }),
    route({
      method: 'GET',
      path: '/api/k8s/:resource/:name/yaml',
      permission: 'view',
      resourceKind: ':resource',
      summary: 'One resource as YAML (managedFields stripped)',
      produces: 'text/yaml',
      query: listQuery,
      handler: async (context) => {
        const object = await readObject(deps, context, await resolveTarget(deps, context), 'yaml');
        context.type = 'text/yaml';
        context.body = toYaml(object);
      },
    }),
    route({
      method: 'GET',
      path: '/api/k8s/:resource/:name/describe',
      permission: 'view',
      resourceKind: ':resource',
      summary: 'kubectl describe text',
      produces: 'text/plain',
      query: listQuery,
      handler: async (context) => {
        const target = await resolveTarget(deps, context);
        const read = { resource: `${target.type.kind.toLowerCase()}/${target.name}`, command: kubectlLine('describe', target), sensitive: sensitiveType(target.type) };
        const text = await auditedRead(deps, context, read, () => describeObject(deps.identities.kubectlFor(context.state.principal), target.type, target.name, target.namespace));
        context.type = 'text/plain';
        context.body = maskDescribe(text, target.type.kind, secretVisibility(context.state.principal));
      },
    }),
    route({
      method: 'DELETE',
      path: '/api/k8s/:resource/:name',
      permission: 'delete',
      resourceKind: ':resource',
      summary: 'Delete a resource; returns its reference',
      query: listQuery,
      handler: async (context) => {
        const target = await resolveTarget(deps, context);
        context.body = await audited(deps, context, { resource: `${target.type.kind.toLowerCase()}/${target.name}`, command: kubectlLine('delete', target) }, () =>
          deleteObject(client(context), target.type, target.name, target.namespace),
        );
      },
    }),
  ];
}

function kubectlLine(verb: string, target: ObjectTarget): string {
  const resource = target.type.group ? `${target.type.plural}.${target.type.group}` : target.type.plural;
  return `kubectl ${verb} ${resource} ${target.name}${target.namespace ? ` -n ${target.namespace}` : ''}`;
}

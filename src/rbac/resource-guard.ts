import type { ResourceRole } from '../config/schema.js';
import { forbidden } from '../errors.js';
import type { Permission } from './permissions.js';
import { requestField } from '../http/request-field.js';
import type { AppContext, RouteSpec } from '../http/types.js';
import { deniedNamespaces, effectiveRoles, evaluateRoles, type ResourceTarget, type ResourceVerb } from './resource-roles.js';

/** Matrix permissions that resource-level allow roles may extend (cluster resources only). */
const extendable: ReadonlySet<Permission> = new Set<Permission>(['view', 'view_logs', 'execute_write', 'delete']);

/**
 * The verb a request performs. It is about one object when the route names one (a `:name` path
 * parameter, or `name` in the query or JSON body): GET of a collection is `list`, GET of an object
 * (or its logs, yaml, describe) `get`, DELETE `delete`, PATCH `patch`, PUT `update`, POST on an
 * object (scale, restart, exec, cordon, drain...) `update`, POST on a collection `create`.
 */
export function verbFor(method: RouteSpec['method'], onObject: boolean): ResourceVerb {
  if (method === 'GET') return onObject ? 'get' : 'list';
  if (method === 'DELETE') return 'delete';
  if (method === 'PATCH') return 'patch';
  if (method === 'PUT') return 'update';
  return onObject ? 'update' : 'create';
}

/** Every name a resource kind goes by, lowercase (resolved through discovery when possible). */
export type ResourceNameResolver = (name: string) => Promise<string[]>;
export type DenyRecorder = (context: AppContext, spec: RouteSpec, reason: string) => void;

/**
 * Applies `authorization.roles` to routes that declare a `resourceKind`: explicit denies refuse
 * (403, audited), allows may extend the base role, and a list across all namespaces leaves out
 * the namespaces a deny covers.
 */
export class ResourceGuard {
  constructor(
    private readonly definitions: readonly ResourceRole[],
    private readonly resolveNames: ResourceNameResolver,
    private readonly recordDeny: DenyRecorder,
  ) {}

  /** Whether allow roles grant what the permission matrix refused; a covering deny refuses here, naming itself. */
  async extendsPermission(context: AppContext, spec: RouteSpec): Promise<boolean> {
    if (!spec.resourceKind || !extendable.has(spec.permission)) return false;
    const roles = this.rolesOf(context);
    if (roles.length === 0) return false;
    const target = await this.targetOf(context, spec);
    const verdict = evaluateRoles(roles, target);
    if (verdict === 'deny') this.refuse(context, spec, target);
    return verdict === 'allow';
  }

  /** Refuses what a deny role covers; narrows all-namespace lists. */
  async authorize(context: AppContext, spec: RouteSpec): Promise<void> {
    if (!spec.resourceKind) return;
    const roles = this.rolesOf(context);
    if (roles.length === 0) return;
    const target = await this.targetOf(context, spec);
    if (target.verb === 'list' && target.namespace === undefined) {
      const denied = deniedNamespaces(roles, target);
      if (denied.all) this.refuse(context, spec, target);
      if (denied.namespaces.size > 0) context.state.namespaceFilter = (namespace) => namespace === undefined || !denied.namespaces.has(namespace);
      return;
    }
    if (evaluateRoles(roles, target) === 'deny') this.refuse(context, spec, target);
  }

  private rolesOf(context: AppContext): ResourceRole[] {
    const principal = context.state.principal;
    if (!principal || this.definitions.length === 0) return [];
    return effectiveRoles(this.definitions, principal.role, principal.roles);
  }

  private async targetOf(context: AppContext, spec: RouteSpec): Promise<ResourceTarget> {
    const kind = spec.resourceKind === ':resource' ? (context.params?.resource ?? '') : (spec.resourceKind ?? '');
    const verb = verbFor(spec.method, requestField(context, 'name') !== undefined);
    return { names: await this.resolveNames(kind), namespace: requestField(context, 'namespace') ?? spec.defaultNamespace, verb };
  }

  private refuse(context: AppContext, spec: RouteSpec, target: ResourceTarget): never {
    this.recordDeny(context, spec, 'resource_role');
    const where = target.namespace ? ` in namespace ${target.namespace}` : '';
    throw forbidden(`a resource-level role denies ${target.verb} on ${target.names[0] ?? 'this resource'}${where}`, {
      reason: 'resource_role',
      verb: target.verb,
      resource: target.names[0],
      namespace: target.namespace,
    });
  }
}

import type { Principal } from './principal.js';
import type { ResourceRole } from '../config/schema.js';
import type { ResourceType } from '../kube/discovery.js';
import type { GrantCheck } from './authorize.js';
import { decide, type PolicyDecision, type PolicyMode } from './policy.js';
import type { RequestAttributes } from './request-attributes.js';
import { effectiveRoles } from './resource-roles.js';

export interface PolicyEngineOptions {
  /** Resource-level role definitions (`authorization.roles`). */
  definitions: readonly ResourceRole[];
  /** Pilothouse's own namespace. */
  ownNamespace: string;
  /** The resource types the cluster serves (discovery); throws when discovery fails. */
  resourceTypes(): Promise<readonly ResourceType[]>;
  /** Approved just-in-time grants. */
  grantCheck: GrantCheck;
}

/** Every name a resource goes by, lowercase, as resource-level roles may spell it. */
export function namesOf(type: ResourceType): string[] {
  const names = [type.plural, type.group ? `${type.plural}.${type.group}` : type.plural, type.singular, type.kind, ...type.shortNames];
  return [...new Set(names.map((name) => name.toLowerCase()))];
}

/**
 * Resolves what the pure `decide` needs (the resource's names through discovery, failing closed
 * when discovery fails and resource-level roles apply; the caller's grants) and asks it.
 */
export class PolicyEngine {
  constructor(private readonly options: PolicyEngineOptions) {}

  async authorize(principal: Principal | undefined, attributes: RequestAttributes, mode: PolicyMode): Promise<PolicyDecision> {
    const names = principal && this.rolesApply(principal) ? await this.names(attributes) : [];
    return decide(principal, attributes, mode, {
      definitions: this.options.definitions,
      names,
      ownNamespace: this.options.ownNamespace,
      hasGrant: (permission) =>
        principal !== undefined &&
        this.options.grantCheck(principal, { permission, resourceKind: attributes.resource, namespace: attributes.namespace || undefined }),
    });
  }

  /**
   * Namespaces a list or watch across all namespaces must leave out for this principal ('all':
   * every namespace is denied). Resource routes filter their lists with it.
   */
  async hiddenNamespaces(
    principal: Principal | undefined,
    resource: { apiGroup: string; resource: string },
    verb: 'list' | 'watch' | 'get',
  ): Promise<{ all: boolean; namespaces: ReadonlySet<string> }> {
    const attributes: RequestAttributes = {
      verb: verb === 'get' ? 'list' : verb,
      isResourceRequest: true,
      path: '',
      apiGroup: resource.apiGroup,
      apiVersion: '',
      resource: resource.resource,
      subresource: '',
      namespace: '',
      name: '',
      dryRun: false,
    };
    const decision = await this.authorize(principal, attributes, 'direct');
    if (!decision.allowed) return { all: true, namespaces: new Set() };
    return { all: false, namespaces: decision.hiddenNamespaces ?? new Set() };
  }

  private rolesApply(principal: Principal): boolean {
    return effectiveRoles(this.options.definitions, principal.role, principal.roles).length > 0;
  }

  /** The resource's names; undefined when discovery fails (resource-level roles then refuse). */
  private async names(attributes: RequestAttributes): Promise<readonly string[] | undefined> {
    if (!attributes.isResourceRequest) return [];
    let types: readonly ResourceType[];
    try {
      types = await this.options.resourceTypes();
    } catch {
      return undefined;
    }
    const type = types.find((candidate) => candidate.group === attributes.apiGroup && candidate.plural === attributes.resource);
    if (type) return namesOf(type);
    const qualified = attributes.apiGroup ? [`${attributes.resource}.${attributes.apiGroup}`] : [];
    return [attributes.resource, ...qualified];
  }
}

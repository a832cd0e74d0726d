import type { PolicyDecision } from '../../rbac/policy.js';
import type { RequestAttributes } from '../../rbac/request-attributes.js';
import type { AccessNeeded, ToolClusterRefusal } from '../types.js';

/**
 * The access request that lets a request refused with `approval_required` pass: the same
 * permission, resource and namespace the policy engine checks grants against
 * (src/rbac/policy-engine.ts); none for any other refusal.
 */
export function accessNeededOf(attributes: RequestAttributes, decision: Pick<PolicyDecision, 'code' | 'permission'>): AccessNeeded | undefined {
  const { permission } = decision;
  if (decision.code !== 'approval_required' || !attributes.isResourceRequest) return undefined;
  if (permission !== 'execute_write' && permission !== 'delete') return undefined;
  return { permission, namespaces: attributes.namespace ? [attributes.namespace] : [], resources: [attributes.resource] };
}

/** The first refusals of one proxy (kubectl retries and lists are bounded by this cap). */
export class RefusalLog {
  private readonly entries: ToolClusterRefusal[] = [];

  constructor(private readonly limit = 20) {}

  /** Records a refusal; `decision` (the policy's, when it decided) tells whether an access request would help. */
  add(attributes: RequestAttributes, reason: string, decision?: Pick<PolicyDecision, 'code' | 'permission' | 'verb'>): void {
    if (this.entries.length >= this.limit) return;
    const resource = attributes.isResourceRequest
      ? [attributes.apiGroup ? `${attributes.resource}.${attributes.apiGroup}` : attributes.resource, attributes.subresource].filter(Boolean).join('/')
      : attributes.path;
    const accessNeeded = decision ? accessNeededOf(attributes, decision) : undefined;
    this.entries.push({
      verb: decision?.verb ?? attributes.verb,
      resource,
      namespace: attributes.namespace,
      name: attributes.name,
      reason,
      ...(accessNeeded ? { accessNeeded } : {}),
    });
  }

  list(): readonly ToolClusterRefusal[] {
    return [...this.entries];
  }
}

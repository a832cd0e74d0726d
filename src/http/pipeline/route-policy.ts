import { grantTarget } from './grant-target.js';
import { AppError } from '../../errors.js';
import type { Discovery } from '../../kube/discovery.js';
import { refusal } from '../../rbac/authorize.js';
import { decidePermission, type PolicyDecision } from '../../rbac/policy.js';
import type { RequestAttributes } from '../../rbac/request-attributes.js';
import { requestField } from './request-field.js';
import { routeAttributes } from './route-attributes.js';
import { scopeOf } from '../request-state.js';
import type { AppContext, RouteSpec } from '../types.js';

export type DenyRecorder = (context: AppContext, spec: RouteSpec, reason: string) => void;

interface RouteDecision {
  decision: PolicyDecision;
  attributes?: RequestAttributes;
}

const discoveryFailed = (kind: string): PolicyDecision => ({
  allowed: false,
  code: 'discovery_failed',
  reason: `the resource type "${kind}" could not be resolved (cluster discovery failed): refused`,
});

/**
 * Authorization of every HTTP route, by the one policy: a route on a cluster resource
 * (`resourceKind`) is the Kubernetes request it amounts to, decided by the PolicyEngine in mode
 * `direct`; any other route by the same permission matrix. A refusal is audited as deny and
 * answered 403 with the decision's code as `details.reason`; a list across all namespaces leaves
 * out the namespaces the caller may not see (`context.state.hiddenNamespaces`).
 */
export class RoutePolicy {
  constructor(private readonly recordDeny: DenyRecorder) {}

  async authorize(context: AppContext, spec: RouteSpec): Promise<void> {
    const { decision, attributes } = spec.resourceKind
      ? await this.resourceDecision(context, spec, spec.resourceKind)
      : { decision: this.matrixDecision(context, spec) };
    if (!decision.allowed) {
      if (decision.code !== 'unauthenticated') this.recordDeny(context, spec, decision.code);
      throw refusal(decision, attributes);
    }
    const hidden = decision.hiddenNamespaces;
    if (hidden && hidden.size > 0) context.state.hiddenNamespaces = hidden;
  }

  private matrixDecision(context: AppContext, spec: RouteSpec): PolicyDecision {
    const principal = context.state.principal;
    const grantCheck = scopeOf(context).grantCheck;
    return decidePermission(
      principal,
      spec.permission,
      (permission) => principal !== undefined && grantCheck(principal, { permission, ...grantTarget(context, spec) }),
    );
  }

  private async resourceDecision(context: AppContext, spec: RouteSpec, declared: string): Promise<RouteDecision> {
    const kind = declared === ':resource' ? (requestField(context, 'resource') ?? '') : declared;
    const scope = scopeOf(context);
    const type = await resolve(scope.discovery, context, kind);
    if (!type) return { decision: discoveryFailed(kind) };
    // A cluster-scoped kind names no namespace: the attributes say which one its object is in (a Namespace is in itself).
    const namespace = type.namespaced ? (requestField(context, 'namespace') ?? spec.defaultNamespace ?? '') : '';
    const name = requestField(context, 'name') ?? '';
    const attributes = routeAttributes(spec, { resource: type.resource, apiGroup: type.apiGroup, apiVersion: type.apiVersion, name, namespace });
    return { decision: await scope.policy.authorize(context.state.principal, attributes, 'direct'), attributes };
  }
}

/**
 * The kind's resource and group through discovery; the found kind is kept on the request state, so the
 * handler does not look it up again. A kind the cluster does not serve keeps its name (the handler answers
 * 404); undefined when discovery itself fails (the route is refused).
 */
async function resolve(
  discovery: Discovery,
  context: AppContext,
  kind: string,
): Promise<{ resource: string; apiGroup: string; apiVersion: string; namespaced: boolean } | undefined> {
  try {
    const type = await discovery.resolve(kind);
    context.state.resourceType = { name: kind, type };
    return { resource: type.plural, apiGroup: type.group, apiVersion: type.version, namespaced: type.namespaced };
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return { resource: kind.toLowerCase(), apiGroup: '', apiVersion: 'v1', namespaced: true };
    return undefined;
  }
}

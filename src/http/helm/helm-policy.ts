import type { ResourceType } from '../../kube/discovery.js';
import { releaseRequests, manifestObjects, type HelmAction } from '../../helm/release-requests.js';
import { refusal } from '../../rbac/authorize.js';
import { auditDenied } from '../pipeline/app.js';
import type { AppContext, HttpMethod } from '../types.js';
import { scopeOf } from '../request-state.js';
import type { AuditContextDeps } from '../audit-context.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export type HelmPolicyDeps = AuditContextDeps;

/**
 * Authorizes a helm action by the one policy, as the Kubernetes requests it amounts to (the
 * release Secrets in the release namespace, and each kind of `manifest` in its namespace, mode
 * `direct`). The first refusal refuses the whole action before helm runs: audited as deny, 403
 * with the decision's code. When discovery fails the kinds cannot be known: refused.
 */
export async function authorizeHelmAction(
  deps: HelmPolicyDeps,
  context: AppContext,
  request: { action: HelmAction; namespace: string; manifest?: string },
): Promise<void> {
  const { action, namespace, manifest = '' } = request;
  const principal = context.state.principal;
  let types: readonly ResourceType[] = [];
  if (manifest !== '') {
    try {
      types = await scopeOf(context).discovery.all();
    } catch {
      refuse(deps, context, {
        allowed: false,
        code: 'discovery_failed',
        reason: `helm ${action} is refused: the cluster's resource types could not be resolved`,
      });
    }
  }
  for (const attributes of releaseRequests(action, namespace, manifestObjects(manifest), types)) {
    const decision = await scopeOf(context).policy.authorize(principal, attributes, 'direct');
    if (!decision.allowed) refuse(deps, context, { ...decision, reason: `helm ${action} is refused: ${decision.reason}` }, attributes);
  }
}

function refuse(deps: HelmPolicyDeps, context: AppContext, ...args: Parameters<typeof refusal>): never {
  const spec = {
    method: context.method as HttpMethod,
    path: context.state.routeTemplate ?? context.path,
    permission: context.state.permission ?? 'execute_write',
  };
  if (args[0].code !== 'unauthenticated') auditDenied(deps, context, spec, args[0].code);
  throw refusal(...args);
}

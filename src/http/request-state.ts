import type { Principal } from '../rbac/principal.js';
import { unauthorized } from '../errors.js';
import type { KubeIdentityClient } from '../kube/clients.js';
import type { AppContext } from './types.js';
import type { ClusterScope } from '../clusters/scope.js';
import type { ResourceType } from '../kube/discovery.js';

/** The authenticated caller (routes that are not public always have one). */
export function principalOf(context: AppContext): Principal {
  const principal = context.state.principal;
  if (!principal) throw unauthorized('authentication required');
  return principal;
}

/** The caller's cluster client (their mapped identity), set on the request state by the route layer. */
export function kubeOf(context: AppContext): KubeIdentityClient {
  const kube = context.state.kube;
  if (!kube) throw new Error('no cluster client on the request state');
  return kube();
}

/** The request's cluster scope (`?cluster=` on cluster-facing routes, else the home cluster), set by the route layer. */
export function scopeOf(context: AppContext): ClusterScope {
  const scope = context.state.scope;
  if (!scope) throw new Error('no cluster scope on the request state');
  return scope;
}

/** The kind the request names, as its authorization resolved it; else one lookup (404 for a kind the cluster does not serve). */
export async function resourceTypeOf(context: AppContext, name: string): Promise<ResourceType> {
  const resolved = context.state.resourceType;
  return resolved?.name === name ? resolved.type : await scopeOf(context).discovery.resolve(name);
}

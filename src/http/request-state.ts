import type { Principal } from '../rbac/principal.js';
import { unauthorized } from '../errors.js';
import type { KubeIdentityClient } from '../kube/clients.js';
import type { AppContext } from './types.js';

/** The authenticated caller (routes that are not public always have one). */
export function principalOf(context: AppContext): Principal {
  const principal = context.state.principal;
  if (!principal) throw unauthorized('authentication required');
  return principal;
}

/** The caller's cluster client (their mapped identity), set on the request state by the route layer. */
export function clusterOf(context: AppContext): KubeIdentityClient {
  const cluster = context.state.cluster;
  if (!cluster) throw new Error('no cluster client on the request state');
  return cluster();
}

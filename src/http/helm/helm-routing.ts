import { z } from 'zod';
import type { HelmInvocation } from '../../helm/helm-runner.js';
import { checkOutboundUrl } from '../../net/address-policy.js';
import { helmUrlPolicy } from '../../net/outbound-policies.js';
import type { ClusterScopes } from '../../clusters/scope.js';
import { apiServerUrls } from '../../clusters/scope-readers.js';
import type { AuditContextDeps } from '../audit-context.js';
import type { HelmPolicyDeps } from './helm-policy.js';
import type { AppContext } from '../types.js';
import type { Config } from '../../config/schema.js';
import { scopeOf } from '../request-state.js';
import type { SharedHelmRepositories } from '../../helm/shared-repositories.js';

/** What the Helm release and repository routes use of the composed services (src/app/compose.ts hands them exactly these). */
export interface HelmRouteDeps extends AuditContextDeps, HelmPolicyDeps {
  config: Config;
  helmRepositories: SharedHelmRepositories;
  /** Every served cluster (a chart URL may name none of their API servers). */
  clusters: ClusterScopes;
}

export const repositoryUrl = z.url({ protocol: /^https?$/ });

/** helm for the request's identity on the request's cluster, with Helm state under `<dataDir>/helm`. */
export function helmFor(context: AppContext): HelmInvocation {
  return scopeOf(context).helm.for(context.state.principal);
}

/** helm for the request's identity, its helm home first brought to the shared chart repositories (ADR 0032). */
export async function helmWithRepositories(deps: HelmRouteDeps, context: AppContext): Promise<HelmInvocation> {
  const helm = helmFor(context);
  await deps.helmRepositories.sync(helm);
  return helm;
}

/** Repository and chart URLs must pass the outbound address rules (config `helm.allow_http`, `helm.allow_private_urls`). */
export async function checkChartUrl(deps: HelmRouteDeps, url: string | undefined, field: string): Promise<void> {
  if (url !== undefined) await checkOutboundUrl(url, helmUrlPolicy(deps.config, apiServerUrls(deps.clusters)), field);
}

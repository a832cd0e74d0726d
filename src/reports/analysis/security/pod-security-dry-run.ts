import { AppError } from '../../../errors.js';
import type { KubeIdentityClient } from '../../../kube/clients.js';
import type { RequestAttributes } from '../../../rbac/request-attributes.js';
import type { NamespaceObject } from '../kube-shapes.js';
import type { ReportContext } from '../report-context.js';
import { parseAdmissionWarnings, warningTexts, type PodViolation } from './admission-warnings.js';

export const levels = ['baseline', 'restricted'] as const;
export type PodSecurityLevel = (typeof levels)[number];

const enforceLabel = 'pod-security.kubernetes.io/enforce';

/** The API server's verdict on one namespace at one level. */
export interface LevelResult {
  namespace: string;
  level: PodSecurityLevel;
  /** Whose identity made the dry run. */
  madeAs: 'requester' | 'pilothouse';
  violations: PodViolation[];
  notes: string[];
  /** The namespace already enforces this level: the label does not change and nothing is evaluated. */
  alreadyEnforced: boolean;
}

function patchAttributes(namespace: string): RequestAttributes {
  const path = `/api/v1/namespaces/${namespace}`;
  return {
    verb: 'patch',
    isResourceRequest: true,
    path,
    apiGroup: '',
    apiVersion: 'v1',
    resource: 'namespaces',
    subresource: '',
    namespace,
    name: namespace,
    dryRun: true,
  };
}

/** A server-side dry-run label patch: the PodSecurity admission answers with warnings for existing pods that would violate the level. */
async function dryRunLabel(client: KubeIdentityClient, namespace: string, level: PodSecurityLevel, signal: AbortSignal): Promise<string[]> {
  const response = await client.rest.raw('PATCH', `/api/v1/namespaces/${encodeURIComponent(namespace)}`, {
    query: { dryRun: 'All', fieldManager: 'pilothouse-report' },
    body: { metadata: { labels: { [enforceLabel]: level } } },
    contentType: 'application/merge-patch+json',
    signal,
    target: `namespace ${namespace}`,
  });
  await response.body?.cancel();
  return warningTexts(response.headers.get('warning'));
}

/**
 * One namespace at both levels. The dry run is made as the requester; when the cluster refuses
 * the requester's identity (it may not patch namespaces), Pilothouse's own identity makes it, for
 * namespaces the requester may view only (a dry run persists nothing; the warnings name only pods
 * of that namespace, which the requester may see).
 */
export async function evaluateNamespace(context: ReportContext, namespace: NamespaceObject): Promise<LevelResult[]> {
  const name = namespace.metadata?.name ?? '';
  const decision = await context.deps.policy.authorize(context.input.principal, patchAttributes(name), 'direct');
  if (!decision.allowed) return [];
  const requester = context.deps.identities.clientFor(context.input.principal);
  const results: LevelResult[] = [];
  for (const level of levels) {
    const alreadyEnforced = namespace.metadata?.labels?.[enforceLabel] === level;
    let madeAs: LevelResult['madeAs'] = 'requester';
    let texts: string[];
    try {
      texts = await dryRunLabel(requester, name, level, context.input.signal);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'FORBIDDEN') throw error;
      madeAs = 'pilothouse';
      texts = await dryRunLabel(context.deps.ownClient, name, level, context.input.signal);
    }
    results.push({ namespace: name, level, madeAs, alreadyEnforced, ...parseAdmissionWarnings(texts) });
  }
  return results;
}

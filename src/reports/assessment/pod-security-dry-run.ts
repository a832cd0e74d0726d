import { AppError } from '../../errors.js';
import type { KubeIdentityClient } from '../../kube/clients.js';
import type { RequestAttributes } from '../../rbac/request-attributes.js';
import type { NamespaceObject } from '../context/kube-shapes.js';
import type { ReportContext } from '../context/report-context.js';
import { parseAdmissionWarnings, warningTexts, type PodViolation } from './admission-warnings.js';

export const levels = ['baseline', 'restricted'] as const;
export type PodSecurityLevel = (typeof levels)[number];

const enforceLabel = 'pod-security.kubernetes.io/enforce';
const strictness: Record<string, number> = { privileged: 0, baseline: 1, restricted: 2 };

/** Whether the namespace's enforce label already asks for `level` or more. */
function enforces(namespace: NamespaceObject, level: PodSecurityLevel): boolean {
  const current = namespace.metadata?.labels?.[enforceLabel];
  return current !== undefined && (strictness[current] ?? -1) >= strictness[level]!;
}

/** The API server's verdict on one namespace at one level. */
export interface LevelResult {
  namespace: string;
  level: PodSecurityLevel;
  /** Whose identity made the dry run. */
  madeAs: 'requester' | 'pilothouse';
  violations: PodViolation[];
  notes: string[];
  /**
   * The namespace already enforces this level or a stricter one: the API server evaluates only a
   * tightening label, so the dry run is not made.
   */
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

/** Whether the cluster lets the requester's identity list pods in the namespace (a SelfSubjectAccessReview). */
async function mayListPods(requester: KubeIdentityClient, namespace: string, signal: AbortSignal): Promise<boolean> {
  const review = await requester.rest.json<{ status?: { allowed?: boolean } }>('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { namespace, verb: 'list', resource: 'pods' } },
    },
    signal,
    target: 'selfsubjectaccessreviews',
  });
  return review.status?.allowed === true;
}

/**
 * The dry run as the requester, or as Pilothouse when the cluster refuses the requester's identity
 * the patch, and only if that identity may list the namespace's pods (the warnings name them).
 */
async function dryRunAs(
  context: ReportContext,
  requester: KubeIdentityClient,
  namespace: string,
  level: PodSecurityLevel,
): Promise<{ madeAs: LevelResult['madeAs']; texts: string[] }> {
  try {
    return { madeAs: 'requester', texts: await dryRunLabel(requester, namespace, level, context.input.signal) };
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'FORBIDDEN') throw error;
    if (!(await mayListPods(requester, namespace, context.input.signal))) throw error;
    return { madeAs: 'pilothouse', texts: await dryRunLabel(context.deps.ownClient, namespace, level, context.input.signal) };
  }
}

/**
 * One namespace at both levels. The dry run is made as the requester; when the cluster refuses
 * the requester's identity (it may not patch namespaces), Pilothouse's own identity makes it, for
 * namespaces the requester may view only: the policy allows it and the cluster lets the requester's
 * identity list the pods there (a dry run persists nothing; the warnings name only those pods).
 */
export async function evaluateNamespace(context: ReportContext, namespace: NamespaceObject): Promise<LevelResult[]> {
  const name = namespace.metadata?.name ?? '';
  const decision = await context.deps.policy.authorize(context.input.principal, patchAttributes(name), 'direct');
  if (!decision.allowed) return [];
  const requester = context.deps.identities.clientFor(context.input.principal);
  const results: LevelResult[] = [];
  for (const level of levels) {
    if (enforces(namespace, level)) {
      results.push({ namespace: name, level, madeAs: 'requester', alreadyEnforced: true, violations: [], notes: [] });
      continue;
    }
    const { madeAs, texts } = await dryRunAs(context, requester, name, level);
    results.push({ namespace: name, level, madeAs, alreadyEnforced: false, ...parseAdmissionWarnings(texts) });
  }
  return results;
}

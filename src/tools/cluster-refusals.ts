import type { AccessNeeded, ToolClusterRefusal, ToolResult } from './types.js';

/** `[policy] refused create configmaps x in ns/team: <reason>`: one line per refusal, for the model to read. */
export function refusalLines(refusals: readonly ToolClusterRefusal[]): string[] {
  return refusals.map((refusal) => {
    const name = refusal.name ? ` ${refusal.name}` : '';
    const namespace = refusal.namespace && refusal.resource !== 'namespaces' ? ` in ns/${refusal.namespace}` : '';
    return `[policy] refused ${refusal.verb} ${refusal.resource}${name}${namespace}: ${refusal.reason}`;
  });
}

/** The result with the proxy's refusals appended (unchanged when there were none). */
export function withRefusals(result: ToolResult, refusals: readonly ToolClusterRefusal[]): ToolResult {
  if (refusals.length === 0) return result;
  const separator = result.output === '' || result.output.endsWith('\n') ? '' : '\n';
  return { ...result, output: `${result.output}${separator}${refusalLines(refusals).join('\n')}` };
}

/** Whether a tool reaches the cluster (and so runs with a policy proxy session). */
export function usesCluster(type: string): boolean {
  return type === 'kubectl' || type === 'bash';
}

/** Whether calls of this tool type name a cluster (their `cluster` argument, else the chat's): the proxied ones and promql. */
export function namesCluster(type: string): boolean {
  return usesCluster(type) || type === 'promql';
}

const union = (lists: readonly string[][]): string[] => [...new Set(lists.flat())].sort();

/**
 * One access request covering every refusal of a call that an access request would lift (those of
 * the first such refusal's permission), or undefined when none would. A cluster-scoped refusal
 * (no namespace) needs all namespaces, so the merged scope then names none.
 */
export function accessNeededFor(refusals: readonly ToolClusterRefusal[]): AccessNeeded | undefined {
  const needed = refusals.flatMap((refusal) => (refusal.accessNeeded ? [refusal.accessNeeded] : []));
  const permission = needed[0]?.permission;
  if (!permission) return undefined;
  const same = needed.filter((scope) => scope.permission === permission);
  const everywhere = same.some((scope) => scope.namespaces.length === 0);
  return {
    permission,
    namespaces: everywhere ? [] : union(same.map((scope) => scope.namespaces)),
    resources: union(same.map((scope) => scope.resources)),
  };
}

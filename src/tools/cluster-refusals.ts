import type { ToolClusterRefusal, ToolResult } from './types.js';

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

import { isAppError } from '../../errors.js';
import type { Finding } from '../document/document.js';
import type { NamespaceObject, Pod } from '../context/kube-shapes.js';
import type { ReportContext } from '../context/report-context.js';
import { refs } from '../document/resource-refs.js';
import { count, limitedTableOf, tableOf, type SectionContent } from '../document/report-sections.js';
import { cisFindings } from './cis-findings.js';
import { evaluateNamespace, type LevelResult } from './pod-security-dry-run.js';

const parallelNamespaces = 4;

interface NamespaceOutcome {
  namespace: string;
  results: LevelResult[];
  failure?: string;
}

async function evaluateAll(context: ReportContext, namespaces: NamespaceObject[]): Promise<NamespaceOutcome[]> {
  const outcomes: NamespaceOutcome[] = [];
  for (let start = 0; start < namespaces.length; start += parallelNamespaces) {
    const batch = namespaces.slice(start, start + parallelNamespaces);
    outcomes.push(
      ...(await Promise.all(
        batch.map(async (namespace): Promise<NamespaceOutcome> => {
          const name = namespace.metadata?.name ?? '';
          try {
            return { namespace: name, results: await evaluateNamespace(context, namespace) };
          } catch (error) {
            if (!isAppError(error) || context.input.signal.aborted) throw error;
            return { namespace: name, results: [], failure: error.message };
          }
        }),
      )),
    );
  }
  return outcomes;
}

function podSecurityFindings(result: LevelResult): Finding[] {
  return result.violations.map((violation) => ({
    rule: `pss.${result.level}`,
    severity: result.level === 'baseline' ? 'high' : 'medium',
    title: `Pod ${result.namespace}/${violation.pod}${violation.others > 0 ? ` (and ${count(violation.others, 'other pod')})` : ''} violates Pod Security "${result.level}": ${violation.violations}`,
    object: { kind: 'Pod', name: violation.pod, namespace: result.namespace },
    why: `The API server's PodSecurity admission, asked by a server-side dry run of label ${'pod-security.kubernetes.io/enforce'}=${result.level} on the namespace, names these violations: such pods would be refused once the level is enforced.`,
    fix: `Change the pod template so it meets the ${result.level} profile, then label the namespace pod-security.kubernetes.io/enforce=${result.level}.`,
  }));
}

/** Whose identity made the namespace's dry runs ('' when none was made). */
function evaluatedAs(outcome: NamespaceOutcome): string {
  const made = outcome.results.find((result) => !result.alreadyEnforced);
  if (!made) return '';
  return made.madeAs === 'pilothouse' ? 'Pilothouse (requester may not patch namespaces)' : 'requester';
}

function outcomeRow(outcome: NamespaceOutcome): Array<string | number> {
  const at = (level: string): LevelResult | undefined => outcome.results.find((result) => result.level === level);
  const pods = (result: LevelResult | undefined): string | number => {
    if (!result) return outcome.failure ? 'not evaluated' : 'not visible';
    if (result.alreadyEnforced) return 'enforced';
    return result.violations.reduce((total, violation) => total + 1 + violation.others, 0);
  };
  const madeAs =
    outcome.results[0]?.madeAs === 'pilothouse' ? 'Pilothouse (requester may not patch namespaces)' : outcome.results.length > 0 ? 'requester' : '';
  const notes = [outcome.failure ?? '', ...outcome.results.flatMap((result) => result.notes)].filter(Boolean).join('; ');
  return [outcome.namespace, pods(at('baseline')), pods(at('restricted')), madeAs, notes];
}

/**
 * The namespaces to evaluate, with their labels where the requester may read them (a one-namespace
 * report needs no namespace list: an identity bound in that namespace only cannot list namespaces).
 */
async function namespacesInScope(context: ReportContext): Promise<NamespaceObject[]> {
  const names = await context.reader.namespaces();
  const objects = await context.list<NamespaceObject>(refs.namespaces).catch(() => [] as NamespaceObject[]);
  const byName = new Map(objects.map((namespace) => [namespace.metadata?.name ?? '', namespace]));
  return names.map((name) => byName.get(name) ?? { metadata: { name } });
}

/**
 * Compliance: Pod Security Standards evaluated by the API server itself (server-side dry-run
 * labels `pod-security.kubernetes.io/enforce=baseline|restricted` per namespace, whose admission
 * warnings name the existing pods that would violate them), and the workload items of CIS
 * Kubernetes Benchmark section 5 readable from the API.
 */
export async function complianceCheck(context: ReportContext): Promise<SectionContent> {
  const namespaces = await namespacesInScope(context);
  const outcomes = await evaluateAll(context, namespaces);
  const pods = await context.list<Pod>(refs.pods);
  const cis = cisFindings(pods);
  const pssFindings = outcomes.flatMap((outcome) => outcome.results.flatMap(podSecurityFindings));
  const pilothouseMade = outcomes.filter((outcome) => evaluatedAs(outcome).startsWith('Pilothouse')).length;
  const identityNote =
    pilothouseMade > 0
      ? ` ${count(pilothouseMade, 'namespace')} evaluated with Pilothouse's own identity (the requester's may not patch namespaces; dry runs persist nothing).`
      : '';
  return {
    summary: `Pod Security Standards evaluated by the API server for ${count(outcomes.length, 'namespace')}: ${count(pssFindings.length, 'violation group')}.${identityNote} CIS section 5 workload checks over ${count(pods.length, 'pod')}.`,
    tables: [
      ...limitedTableOf(
        'Pod Security Standards (pods that would be refused)',
        ['Namespace', 'Baseline', 'Restricted', 'Evaluated as', 'Notes'],
        outcomes.map(outcomeRow),
      ),
      ...tableOf('CIS Kubernetes Benchmark section 5 workload checks', ['Rule', 'Check', 'Severity', 'Workloads', 'Pods'], cis.rows),
    ],
    findings: [...pssFindings, ...cis.findings],
  };
}

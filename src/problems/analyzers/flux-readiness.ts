import { conditionDetail, conditionEvidence, nameOf, namespaceOf, textOf, type Analysis } from '../analyzer.js';
import type { FindingDraft } from '../finding.js';
import { conditionOf, type Condition, type KubeThing } from '../shapes.js';

/** The fields of a Flux object (Kustomization, HelmRelease) its readiness is read from (kstatus conditions). */
interface FluxShape extends KubeThing {
  spec?: { suspend?: boolean };
  status?: { conditions?: Condition[]; lastAttemptedRevision?: string; lastAppliedRevision?: string };
}

function stalledFinding(stalled: Condition, ready: Condition | undefined, revision: string[], hint: string): FindingDraft {
  const evidence = [conditionEvidence(stalled), ...(ready ? [conditionEvidence(ready)] : []), ...revision];
  const message = `Flux stopped retrying (${textOf(stalled.reason) || 'Stalled'}): ${conditionDetail(stalled, conditionDetail(ready ?? {}))}`;
  return { severity: 'critical', reason: 'Stalled', message, evidence, hint };
}

function readinessFindings(flux: FluxShape, hint: string): FindingDraft[] {
  const conditions = flux.status?.conditions;
  const ready = conditionOf(conditions, 'Ready');
  const stalled = conditionOf(conditions, 'Stalled');
  const attempted = flux.status?.lastAttemptedRevision;
  const revision = attempted ? [`status.lastAttemptedRevision: ${attempted}`] : [];
  if (stalled?.status === 'True') return [stalledFinding(stalled, ready, revision, hint)];
  if (ready?.status !== 'False') return [];
  const message = `Not ready (${textOf(ready.reason) || 'False'}): ${conditionDetail(ready)}`;
  return [{ severity: 'warning', reason: 'NotReady', message, evidence: [conditionEvidence(ready), ...revision], hint }];
}

/**
 * A Flux object's findings from its conditions: `Stalled` (critical: Flux gave up until the spec changes) or
 * `NotReady` (Ready False, with Flux's reason and message), and `Suspended` (info: reconciliation is off).
 */
export function fluxReadiness(object: KubeThing, resource: string): Analysis {
  const flux = object as FluxShape;
  const hint = `kubectl describe ${resource} ${nameOf(flux)} -n ${namespaceOf(flux)}`;
  const suspended: FindingDraft[] =
    flux.spec?.suspend === true
      ? [
          {
            severity: 'info',
            reason: 'Suspended',
            message: 'Reconciliation is suspended: changes to its source are not applied',
            evidence: ['spec.suspend: true'],
            hint,
          },
        ]
      : [];
  return { findings: [...readinessFindings(flux, hint), ...suspended] };
}

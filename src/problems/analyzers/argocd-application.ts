import { nameOf, namespaceOf, textOf, type Analysis, type Analyzer } from '../analyzer.js';
import type { FindingDraft } from '../finding.js';
import type { Condition, KubeThing } from '../shapes.js';

/** The fields of an Argo CD `Application` (argoproj.io/v1alpha1) this analyzer reads. */
interface ApplicationShape extends KubeThing {
  status?: {
    sync?: { status?: string; revision?: string };
    health?: { status?: string; message?: string };
    conditions?: Condition[];
    operationState?: { phase?: string; message?: string };
    resources?: Array<{ kind?: string; namespace?: string; name?: string; status?: string; health?: { status?: string } }>;
  };
}

/** The resources Argo CD reports out of sync, as `kind/name` (at most five named). */
function outOfSyncResources(application: ApplicationShape): string[] {
  const resources = application.status?.resources ?? [];
  return resources.filter((resource) => resource.status === 'OutOfSync').map((resource) => `${textOf(resource.kind)}/${textOf(resource.name)}`);
}

function syncFinding(application: ApplicationShape, hint: string): FindingDraft[] {
  const sync = application.status?.sync;
  if (sync?.status !== 'OutOfSync') return [];
  const resources = outOfSyncResources(application);
  const which = resources.length ? `: ${resources.slice(0, 5).join(', ')}${resources.length > 5 ? ` and ${resources.length - 5} more` : ''}` : '';
  const evidence = [`status.sync.status: OutOfSync`, ...(sync.revision ? [`status.sync.revision: ${sync.revision}`] : [])];
  if (resources.length) evidence.push(`status.resources OutOfSync: ${resources.join(', ')}`);
  return [{ severity: 'warning', reason: 'OutOfSync', message: `The cluster differs from the Application's source${which}`, evidence, hint }];
}

function healthFinding(application: ApplicationShape, hint: string): FindingDraft[] {
  const health = application.status?.health;
  if (health?.status !== 'Degraded' && health?.status !== 'Missing') return [];
  const detail = textOf(health.message);
  const evidence = [`status.health.status: ${health.status}`, ...(detail ? [`status.health.message: ${detail}`] : [])];
  const what = health.status === 'Degraded' ? 'The Application is degraded' : 'Resources of the Application are missing from the cluster';
  const severity = health.status === 'Degraded' ? 'critical' : 'warning';
  return [{ severity, reason: health.status, message: detail ? `${what}: ${detail}` : what, evidence, hint }];
}

function operationFinding(application: ApplicationShape, hint: string): FindingDraft[] {
  const operation = application.status?.operationState;
  if (operation?.phase !== 'Failed' && operation?.phase !== 'Error') return [];
  const detail = textOf(operation.message);
  const evidence = [`status.operationState.phase: ${operation.phase}`, ...(detail ? [`status.operationState.message: ${detail}`] : [])];
  return [{ severity: 'warning', reason: 'SyncFailed', message: `The last sync failed: ${detail || operation.phase}`, evidence, hint }];
}

/** The error conditions Argo CD sets (ComparisonError, SyncError, InvalidSpecError…), one finding each. */
function conditionFindings(application: ApplicationShape, hint: string): FindingDraft[] {
  const errors = (application.status?.conditions ?? []).filter((condition) => condition.type?.endsWith('Error'));
  return errors.map((condition) => {
    const type = textOf(condition.type);
    const detail = textOf(condition.message);
    return { severity: 'warning', reason: type, message: detail || type, evidence: [`status.conditions[${type}]: ${detail}`], hint, part: type };
  });
}

function analyzeApplication(application: ApplicationShape): Analysis {
  const hint = `kubectl get applications.argoproj.io ${nameOf(application)} -n ${namespaceOf(application)} -o yaml`;
  return {
    findings: [
      ...syncFinding(application, hint),
      ...healthFinding(application, hint),
      ...operationFinding(application, hint),
      ...conditionFindings(application, hint),
    ],
  };
}

/** Argo CD Applications: `OutOfSync` (with the resources that differ), health `Degraded` or `Missing`, a failed sync (`SyncFailed`), error conditions. */
export const argoApplicationAnalyzer: Analyzer = {
  name: 'application',
  kind: 'Application',
  analyze: (object) => analyzeApplication(object as ApplicationShape),
};

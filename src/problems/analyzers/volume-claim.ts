import { ageOf, eventEvidence, numberSetting, whereOf, type Analysis, type AnalysisContext, type Analyzer } from '../analyzer.js';
import type { FindingDraft } from '../finding.js';
import { refOf } from '../object-store.js';
import type { KubeThing } from '../shapes.js';

interface ClaimShape extends KubeThing {
  spec?: { storageClassName?: string; volumeName?: string };
  status?: { phase?: string };
}

const isDefaultClass = (entry: KubeThing): boolean => entry.metadata?.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true';

function classFinding(claim: ClaimShape, context: AnalysisContext, hint: string): FindingDraft | undefined {
  const className = claim.spec?.storageClassName;
  if (!context.objects.watching('StorageClass') || className === '' || claim.spec?.volumeName) return undefined;
  if (className) {
    if (context.objects.get('StorageClass', undefined, className)) return undefined;
    const evidence = [`spec.storageClassName: ${className}`, 'status.phase: Pending'];
    return { severity: 'warning', reason: 'StorageClassMissing', message: `The StorageClass "${className}" does not exist`, evidence, hint };
  }
  if (context.objects.list('StorageClass').some(isDefaultClass)) return undefined;
  const evidence = ['spec.storageClassName: (none)', 'status.phase: Pending'];
  return { severity: 'warning', reason: 'NoStorageClass', message: 'The claim names no StorageClass and the cluster has no default one', evidence, hint };
}

function pendingForLong(claim: ClaimShape, context: AnalysisContext, hint: string): Analysis {
  const limit = numberSetting(context, 'pendingMinutes', 5) * 60_000;
  const age = ageOf(claim.metadata?.creationTimestamp, context.now) ?? 0;
  if (age < limit) return { findings: [], recheckAt: context.now + (limit - age) };
  const message = `The claim has been pending for ${Math.round(age / 60_000)} minutes`;
  return { findings: [{ severity: 'warning', reason: 'Pending', message, evidence: ['status.phase: Pending'], hint }] };
}

function analyzeClaim(claim: ClaimShape, context: AnalysisContext): Analysis {
  if (claim.status?.phase !== 'Pending') return { findings: [] };
  const hint = `kubectl describe pvc ${whereOf(claim)}`;
  const missingClass = classFinding(claim, context, hint);
  if (missingClass) return { findings: [missingClass] };
  const failed = context.objects.eventsOf(refOf(claim)).filter((event) => event.reason === 'ProvisioningFailed');
  const last = failed[failed.length - 1];
  if (!last) return pendingForLong(claim, context, hint);
  const evidence = ['status.phase: Pending', ...failed.slice(-3).map(eventEvidence)];
  return {
    findings: [{ severity: 'warning', reason: 'ProvisioningFailed', message: `The volume cannot be provisioned: ${String(last.message)}`, evidence, hint }],
  };
}

/** PersistentVolumeClaims pending: no or a missing StorageClass, provisioning failed, pending for long. */
export const volumeClaimAnalyzer: Analyzer = {
  name: 'persistentvolumeclaim',
  kind: 'PersistentVolumeClaim',
  defaults: { pendingMinutes: 5 },
  analyze: (object, context) => analyzeClaim(object as ClaimShape, context),
  dependents: {
    StorageClass: (_changed, objects) => objects.list('PersistentVolumeClaim').map(refOf),
    PersistentVolume: (changed) => {
      const claim = (changed.spec as { claimRef?: { namespace?: string; name?: string } } | undefined)?.claimRef;
      return claim?.name ? [{ kind: 'PersistentVolumeClaim', namespace: claim.namespace, name: claim.name }] : [];
    },
  },
};

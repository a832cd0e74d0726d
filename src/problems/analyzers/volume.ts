import { nameOf, textOf, type Analysis, type Analyzer } from '../analyzer.js';
import type { KubeThing } from '../shapes.js';

interface VolumeShape extends KubeThing {
  spec?: { claimRef?: { namespace?: string; name?: string }; persistentVolumeReclaimPolicy?: string };
  status?: { phase?: string; message?: string; reason?: string };
}

function failed(volume: VolumeShape, hint: string): Analysis {
  const detail = textOf(volume.status?.message) || textOf(volume.status?.reason);
  const evidence = ['status.phase: Failed', ...(detail ? [`status.message: ${detail}`] : [])];
  return { findings: [{ severity: 'critical', reason: 'Failed', message: `The volume failed: ${detail}`, evidence, hint }] };
}

function released(volume: VolumeShape, hint: string): Analysis {
  const claimRef = volume.spec?.claimRef;
  const claim = claimRef ? `${textOf(claimRef.namespace)}/${textOf(claimRef.name)}` : '(none)';
  const policy = volume.spec?.persistentVolumeReclaimPolicy ?? 'Retain';
  const message = `The volume's claim ${claim} is gone; it is not reclaimed (policy ${policy})`;
  return { findings: [{ severity: 'warning', reason: 'Released', message, evidence: ['status.phase: Released', `spec.claimRef: ${claim}`], hint }] };
}

function analyzeVolume(volume: VolumeShape): Analysis {
  const hint = `kubectl describe pv ${nameOf(volume)}`;
  const phase = volume.status?.phase;
  if (phase === 'Failed') return failed(volume, hint);
  return phase === 'Released' ? released(volume, hint) : { findings: [] };
}

/** PersistentVolumes that failed or were released and not reclaimed. */
export const volumeAnalyzer: Analyzer = {
  name: 'persistentvolume',
  kind: 'PersistentVolume',
  analyze: (object) => analyzeVolume(object as VolumeShape),
};

import type { ReactNode } from 'react';
import type { ResourceItem } from '@pilothouse/wire/types';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { useReleasePods } from './use-release-pods';

export type Phase = 'idle' | 'running' | 'done' | 'failed';

/** The release's pods as the cluster starts them: how many run, and each one's status. */
function PodsProgress({ pods }: { pods: ResourceItem[] }): ReactNode {
  const t = useT();
  const ready = pods.filter((pod) => pod.status === 'Running' || pod.status === 'Completed').length;
  const label = t('helm.podsReady', { ready, total: pods.length });
  return (
    <li className={pods.length > 0 && ready === pods.length ? 'tone-good' : 'tone-warn'}>
      {label}
      <progress className="progress-bar" max={Math.max(pods.length, 1)} value={ready} aria-label={label} />
      <ul className="overview-list">
        {pods.map((pod) => (
          <li key={pod.name}>
            <span className="mono">{pod.name}</span> <span className="muted">{String(pod.status ?? '')}</span>
          </li>
        ))}
      </ul>
    </li>
  );
}

function HelmStep({ phase, release }: { phase: Exclude<Phase, 'idle'>; release?: string }): ReactNode {
  const t = useT();
  if (phase === 'running') return <li className="tone-warn">{t('helm.stepRunning')}</li>;
  if (phase === 'failed') return <li className="tone-bad">{t('helm.stepFailed')}</li>;
  return <li className="tone-good">{t('helm.stepDone', { name: release ?? '' })}</li>;
}

/** The progress of an install or upgrade: helm's step, then the release's pods as the cluster starts them (pushed live). */
export function ReleaseProgress({ phase, namespace, release, error }: { phase: Phase; namespace: string; release?: string; error?: unknown }): ReactNode {
  const t = useT();
  const { pods, error: watchError } = useReleasePods(namespace, phase === 'done' ? release : undefined);
  if (phase === 'idle') return null;
  return (
    <section className="card page-section release-progress" aria-labelledby="progress-title" aria-live="polite">
      <h2 id="progress-title">{t('helm.progress')}</h2>
      <ol className="progress-steps">
        <HelmStep phase={phase} release={release} />
        {phase === 'done' && pods !== undefined && <PodsProgress pods={pods} />}
      </ol>
      <ErrorNotice error={error ?? watchError} />
    </section>
  );
}

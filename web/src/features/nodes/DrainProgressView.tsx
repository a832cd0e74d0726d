import type { ReactNode } from 'react';
import { useT } from '../../i18n';
import { progressCounts, type DrainProgress, type DrainResult, type PodFailure, type PodStatus } from './drain-progress';

const statusBadge: Record<PodStatus, string> = { evicted: 'badge-read', failed: 'badge-dangerous', skipped: 'badge-unknown' };

const podName = (pod: { namespace: string; name: string }): string => `${pod.namespace}/${pod.name}`;

function PodReasons({ pods }: { pods: PodFailure[] }): ReactNode {
  return (
    <ul>
      {pods.map((pod) => (
        <li key={podName(pod)}>
          <span className="mono">{podName(pod)}</span>: {pod.reason}
        </li>
      ))}
    </ul>
  );
}

/** The drain's outcome: counts, the message, and the refused and failed pods with their reasons. */
function DrainOutcome({ result }: { result: DrainResult }): ReactNode {
  const t = useT();
  return (
    <div className={`notice ${result.status === 'completed' ? 'notice-ok' : 'notice-error'}`} role="status">
      <div>
        <strong>{t(`node.result.${result.status}`, { node: result.node })}</strong>{' '}
        {t('node.resultCounts', { evicted: result.evicted, failed: result.failed.length, skipped: result.skipped.length })}
        {result.message && <div>{result.message}</div>}
        {result.refused.length > 0 && (
          <>
            <div>{t('node.refusedPods')}</div>
            <PodReasons pods={result.refused} />
          </>
        )}
        {result.failed.length > 0 && <PodReasons pods={result.failed} />}
      </div>
    </div>
  );
}

/** A drain's live progress: a bar, a row per pod with a badge, then the outcome. */
export function DrainProgressView({ node, progress, draining }: { node: string; progress: DrainProgress; draining: boolean }): ReactNode {
  const t = useT();
  const counts = progressCounts(progress);
  return (
    <section className="drain-progress" aria-label={t('node.progress')}>
      <div className="progress-line">
        <progress max={Math.max(counts.total, 1)} value={counts.done} aria-label={t('node.progress')} />
        <span className="small">{t('node.progressCount', { done: counts.done, total: counts.total })}</span>
        {draining && <span className="muted small">{t('node.draining')}</span>}
      </div>
      {progress.cordoned && <p className="muted small">{t('node.cordoned', { node })}</p>}
      {progress.pods.length > 0 && (
        <ul className="drain-pods" aria-live="polite">
          {progress.pods.map((pod) => (
            <li key={podName(pod)}>
              <span className={`badge ${statusBadge[pod.status]}`}>{t(`node.pod.${pod.status}`)}</span> <span className="mono">{podName(pod)}</span>
              {pod.reason && <span className="muted small"> — {pod.reason}</span>}
            </li>
          ))}
        </ul>
      )}
      {progress.result && <DrainOutcome result={progress.result} />}
    </section>
  );
}

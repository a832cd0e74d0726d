import type { ReactNode } from 'react';
import { useT } from '../../i18n';
import { useConnection } from './use-connection';

/** The header's health: a dot (green healthy, red degraded, grey unreachable or unknown), the status, the cluster and AI state. */
export function HealthIndicator({ connection }: { connection: ReturnType<typeof useConnection> }): ReactNode {
  const t = useT();
  const { health, reachable } = connection;
  const status = health?.status;
  const tone = reachable === false || !status ? 'unknown' : status === 'healthy' ? 'good' : 'bad';
  const label = reachable === false ? t('connection.lost') : status === 'healthy' ? t('header.healthy') : status ? t('header.degraded') : t('header.unknown');
  return (
    <div className="health" role="status" aria-label={t('header.health')} data-tone={tone}>
      <span className={`dot dot-${tone}`} aria-hidden="true" />
      <span className="health-label">{label}</span>
      {health && reachable !== false && (
        <span className="health-detail">
          {t('header.kubernetes', { value: health.kubernetes })} · {t('header.llm', { value: health.llm })}
        </span>
      )}
    </div>
  );
}

/** One banner for the whole app while the service cannot be reached; every view retries on its own. */
export function ConnectionBanner({ reachable }: { reachable: boolean | undefined }): ReactNode {
  const t = useT();
  if (reachable !== false) return null;
  return (
    <div className="connection-banner" role="alert">
      <strong>{t('connection.reconnecting')}</strong> <span>{t('connection.detail')}</span>
    </div>
  );
}

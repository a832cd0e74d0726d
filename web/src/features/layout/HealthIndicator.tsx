import type { ReactNode } from 'react';
import { useT } from '../../i18n';
import { useApiQuery } from '../../shared/use-api-query';

/** `GET /api/health` every 15 s: overall status dot plus cluster and AI state. */
export function HealthIndicator(): ReactNode {
  const t = useT();
  const health = useApiQuery('/api/health', { refetchInterval: 15_000, keepPrevious: true });
  const status = health.data?.status;
  const tone = status === 'healthy' ? 'good' : status ? 'bad' : health.error ? 'bad' : 'unknown';
  const label = status === 'healthy' ? t('header.healthy') : status ? t('header.degraded') : health.error ? t('error.network') : t('header.unknown');
  return (
    <div className="health" role="status" aria-label={t('header.health')}>
      <span className={`dot dot-${tone}`} aria-hidden="true" />
      <span className="health-label">{label}</span>
      {health.data && (
        <span className="health-detail">
          {t('header.kubernetes', { value: health.data.kubernetes })} · {t('header.llm', { value: health.data.llm })}
        </span>
      )}
    </div>
  );
}

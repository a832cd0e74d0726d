import { useCallback, type ReactNode } from 'react';
import type { Health } from '@pilothouse/wire/types';
import { useApi } from '../../shared/api-context';
import { dictionaries, useT, type MessageKey, type Translate } from '../../i18n';
import { usePolling } from '../../shared/use-polling';

/** A health value in the UI's language (the shared catalogue's `health.*` words); one it does not know, as the service said it. */
function healthValue(t: Translate, part: 'kubernetes' | 'llm', value: string): string {
  const key = `health.${part}.${value}`;
  return key in dictionaries.en ? t(key as MessageKey) : value;
}

/** `GET /api/health` every 15 s: overall status dot plus cluster and AI state. */
export function HealthIndicator(): ReactNode {
  const client = useApi();
  const t = useT();
  const load = useCallback((signal: AbortSignal) => client.json<Health>('GET', '/api/health', { signal }), [client]);
  const health = usePolling('health', load, 15_000);
  const status = health.data?.status;
  const tone = status === 'healthy' ? 'good' : status ? 'bad' : health.error ? 'bad' : 'unknown';
  const label = status === 'healthy' ? t('header.healthy') : status ? t('header.degraded') : health.error ? t('error.network') : t('header.unknown');
  return (
    <div className="health" role="status" aria-label={t('header.health')}>
      <span className={`dot dot-${tone}`} aria-hidden="true" />
      <span className="health-label">{label}</span>
      {health.data && (
        <span className="health-detail">
          {t('header.kubernetes', { value: healthValue(t, 'kubernetes', health.data.kubernetes) })} ·{' '}
          {t('header.llm', { value: healthValue(t, 'llm', health.data.llm) })}
        </span>
      )}
    </div>
  );
}

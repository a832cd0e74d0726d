import type { ReactNode } from 'react';
import { dictionaries, useT, type MessageKey, type Translate } from '../../i18n';
import { useConnection } from './use-connection';

/** A health value in the UI's language (the shared catalogue's `health.*` words); one it does not know, as the service said it. */
function healthValue(t: Translate, part: 'kubernetes' | 'llm', value: string): string {
  const key = `health.${part}.${value}`;
  return key in dictionaries.en ? t(key as MessageKey) : value;
}

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
          {t('header.kubernetes', { value: healthValue(t, 'kubernetes', health.kubernetes) })} · {t('header.llm', { value: healthValue(t, 'llm', health.llm) })}
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

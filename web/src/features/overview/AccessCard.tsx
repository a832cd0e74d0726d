import type { ReactNode } from 'react';
import { Link } from '../../shared/router';
import { useT } from '../../i18n';
import { useApiQuery } from '../../shared/use-api-query';
import { Card, Stat } from './Stat';

/** For reviewers (admins): access requests waiting for a decision. */
export function AccessCard(): ReactNode {
  const t = useT();
  const requests = useApiQuery('/api/access-requests', { refetchInterval: 30_000 });
  const pending = (requests.data?.items ?? []).filter((request) => request.phase === 'Pending');
  return (
    <Card title={t('overview.access')} id="overview-access">
      <div className="stats">
        <Stat
          value={requests.data ? pending.length : '…'}
          label={t('overview.accessPending')}
          to="/access-requests"
          tone={pending.length ? 'warn' : undefined}
        />
      </div>
      <ul className="overview-list">
        {pending.slice(0, 5).map((request) => (
          <li key={request.id}>
            <Link to="/access-requests">
              {request.requester}: {request.permission} · {request.namespaces.join(', ') || '*'}
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  );
}

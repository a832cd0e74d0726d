import { useCallback, type ReactNode } from 'react';
import type { AccessPhase, AccessRequest } from '../../api/types';
import { useApi } from '../../app/api-context';
import { useT, type MessageKey } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { Spinner } from '../../shared/Spinner';
import { formatTime } from '../../shared/time';
import { usePolling } from '../../shared/use-polling';
import { useAction } from '../../shared/use-action';

const phaseClass: Record<AccessPhase, string> = { Pending: 'badge-write', Approved: 'badge-read', Denied: 'badge-dangerous', Expired: 'badge-unknown' };

function PhaseBadge({ request }: { request: AccessRequest }): ReactNode {
  const t = useT();
  const known = request.phase in phaseClass ? request.phase : 'Expired';
  return (
    <>
      <span className={`badge ${phaseClass[known]}`}>{t(`access.phase.${known}` as MessageKey)}</span>
      {request.phase === 'Approved' && request.expiresAt && <div className="small muted">{t('access.expires', { time: formatTime(request.expiresAt) })}</div>}
    </>
  );
}

const scopeText = (values: string[], all: string): string => (values.length === 0 || values.includes('*') ? all : values.join(', '));

/** Just-in-time access requests: own requests (Withdraw); for admins all of them (Approve / Deny). */
export function AccessRequestsPage(): ReactNode {
  const client = useApi();
  const t = useT();
  const me = client.current;
  const admin = me?.role === 'admin';
  const load = useCallback((signal: AbortSignal) => client.json<{ items: AccessRequest[] }>('GET', '/api/access-requests', { signal }), [client]);
  const requests = usePolling('access-requests', load, 5000);

  const { busy, error, message, act, dismiss } = useAction(() => requests.reload());
  const decide = (request: AccessRequest, verb: 'approve' | 'deny'): void =>
    void act(async () => {
      await client.json('POST', `/api/access-requests/${encodeURIComponent(request.id)}/${verb}`, { body: {} });
      return t(verb === 'approve' ? 'access.approved' : 'access.denied', { requester: request.requester });
    });
  const remove = (request: AccessRequest): void =>
    void act(async () => {
      await client.json('DELETE', `/api/access-requests/${encodeURIComponent(request.id)}`);
      return t(request.requester === me?.username ? 'access.withdrawn' : 'access.revoked');
    });

  const items = requests.data?.items ?? [];
  return (
    <section className="page" aria-labelledby="access-title">
      <div className="toolbar">
        <h1 id="access-title">{t('access.title')}</h1>
        {requests.refreshing && <Spinner label={t('common.loading')} />}
      </div>
      <p className="muted page-intro">{admin ? t('access.intro.admin') : t('access.intro.user')}</p>
      <ErrorNotice error={error ?? requests.error} onDismiss={error ? dismiss : undefined} />
      {message && (
        <p className="notice notice-ok" role="status">
          {message}
        </p>
      )}
      {requests.data && items.length === 0 && <p className="muted page-intro">{t('access.empty')}</p>}
      {items.length > 0 && (
        <div className="table-wrap">
          <table className="data-table">
            <thead>
              <tr>
                {admin && <th scope="col">{t('access.requester')}</th>}
                <th scope="col">{t('access.namespace')}</th>
                <th scope="col">{t('access.resource')}</th>
                <th scope="col">{t('access.ttl')}</th>
                <th scope="col">{t('access.reason')}</th>
                <th scope="col">{t('access.phase')}</th>
                <th scope="col">{t('access.created')}</th>
                <th scope="col">{t('access.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((request) => {
                const own = request.requester === me?.username;
                const open = request.phase === 'Pending' || request.phase === 'Approved';
                return (
                  <tr key={request.id} data-request-id={request.id}>
                    {admin && <td>{request.requester}</td>}
                    <td>{scopeText(request.namespaces, t('access.all'))}</td>
                    <td>{scopeText(request.resources, t('access.all'))}</td>
                    <td>{request.ttl}</td>
                    <td>
                      {request.reason ?? ''}
                      {request.message && <div className="small muted">{request.message}</div>}
                    </td>
                    <td>
                      <PhaseBadge request={request} />
                      {request.reviewer && <div className="small muted">{t('access.reviewedBy', { reviewer: request.reviewer })}</div>}
                    </td>
                    <td className="nowrap">{formatTime(request.createdAt)}</td>
                    <td className="nowrap">
                      {admin && request.phase === 'Pending' && (
                        <span title={own ? t('access.ownRequest') : undefined}>
                          <button
                            type="button"
                            className="small-button primary"
                            disabled={busy || own}
                            title={own ? t('access.ownRequest') : undefined}
                            onClick={() => decide(request, 'approve')}
                          >
                            {t('access.approve')}
                          </button>{' '}
                          <button
                            type="button"
                            className="small-button danger"
                            disabled={busy || own}
                            title={own ? t('access.ownRequest') : undefined}
                            onClick={() => decide(request, 'deny')}
                          >
                            {t('access.deny')}
                          </button>{' '}
                        </span>
                      )}
                      {((own && open) || (admin && !own && request.phase === 'Approved')) && (
                        <button type="button" className="small-button" disabled={busy} onClick={() => remove(request)}>
                          {own ? t('access.withdraw') : t('access.revoke')}
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

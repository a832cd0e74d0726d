import type { ReactNode } from 'react';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { DataTable } from '../../shared/DataTable';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { Spinner } from '../../shared/Spinner';
import { useApiQuery } from '../../shared/use-api-query';
import { useAction, type ActionState } from '../../shared/use-action';
import { AccessActions } from './AccessActions';
import { accessColumns } from './access-columns';

/** The last action's outcome, or the list's load error. */
function ActionNotices({ action, loadError }: { action: ActionState; loadError: unknown }): ReactNode {
  return (
    <>
      <ErrorNotice error={action.error ?? loadError} onDismiss={action.error ? action.dismiss : undefined} />
      {action.message && (
        <p className="notice notice-ok" role="status">
          {action.message}
        </p>
      )}
    </>
  );
}

/** Just-in-time access requests: own requests (Withdraw); for admins all of them (Approve / Deny). */
export function AccessRequestsPage(): ReactNode {
  const client = useApi();
  const t = useT();
  const me = client.current;
  const admin = me?.role === 'admin';
  const requests = useApiQuery('/api/access-requests', { refetchInterval: 5000, keepPrevious: true });

  const action = useAction(() => void requests.refetch());

  const items = requests.data?.items ?? [];
  return (
    <section className="page" aria-labelledby="access-title">
      <div className="toolbar">
        <h1 id="access-title">{t('access.title')}</h1>
        {requests.isFetching && <Spinner label={t('common.loading')} />}
      </div>
      <p className="muted page-intro">{admin ? t('access.intro.admin') : t('access.intro.user')}</p>
      <ActionNotices action={action} loadError={requests.error} />
      {requests.data && items.length === 0 && <p className="muted page-intro">{t('access.empty')}</p>}
      {items.length > 0 && (
        <DataTable
          columns={accessColumns(t, admin, (request) => (
            <AccessActions request={request} me={me?.username} admin={admin} action={action} />
          ))}
          rows={items}
          rowKey={(request) => request.id}
          rowProps={(request) => ({ 'data-request-id': request.id })}
        />
      )}
    </section>
  );
}

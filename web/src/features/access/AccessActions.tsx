import type { ReactNode } from 'react';
import type { AccessRequest } from '@pilothouse/wire/types';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import type { ActionState } from '../../shared/use-action';

interface AccessActionsProps {
  request: AccessRequest;
  /** The caller's user name. */
  me: string | undefined;
  admin: boolean;
  action: ActionState;
}

/** Approve / Deny of a pending request; disabled on the admin's own request. */
function DecideButtons({ request, own, action }: { request: AccessRequest; own: boolean; action: ActionState }): ReactNode {
  const client = useApi();
  const t = useT();
  const ownTitle = own ? t('access.ownRequest') : undefined;
  const decide = (verb: 'approve' | 'deny'): void =>
    void action.act(async () => {
      await client.json('POST', `/api/access-requests/${encodeURIComponent(request.id)}/${verb}`, { body: {} });
      return t(verb === 'approve' ? 'access.approved' : 'access.denied', { requester: request.requester });
    });
  return (
    <span title={ownTitle}>
      <button type="button" className="small-button primary" disabled={action.busy || own} title={ownTitle} onClick={() => decide('approve')}>
        {t('access.approve')}
      </button>{' '}
      <button type="button" className="small-button danger" disabled={action.busy || own} title={ownTitle} onClick={() => decide('deny')}>
        {t('access.deny')}
      </button>{' '}
    </span>
  );
}

/** Withdraw (own request) or Revoke (an admin, someone else's). */
function RemoveButton({ request, own, action }: { request: AccessRequest; own: boolean; action: ActionState }): ReactNode {
  const client = useApi();
  const t = useT();
  const remove = (): void =>
    void action.act(async () => {
      await client.json('DELETE', `/api/access-requests/${encodeURIComponent(request.id)}`);
      return t(own ? 'access.withdrawn' : 'access.revoked');
    });
  return (
    <button type="button" className="small-button" disabled={action.busy} onClick={remove}>
      {own ? t('access.withdraw') : t('access.revoke')}
    </button>
  );
}

/** Whether the caller may withdraw (own open request) or revoke (an admin, someone's approved one) this request. */
function removable(request: AccessRequest, own: boolean, admin: boolean): boolean {
  const open = request.phase === 'Pending' || request.phase === 'Approved';
  return (own && open) || (admin && !own && request.phase === 'Approved');
}

/** The actions cell of an access request. */
export function AccessActions({ request, me, admin, action }: AccessActionsProps): ReactNode {
  const own = request.requester === me;
  return (
    <>
      {admin && request.phase === 'Pending' && <DecideButtons request={request} own={own} action={action} />}
      {removable(request, own, admin) && <RemoveButton request={request} own={own} action={action} />}
    </>
  );
}

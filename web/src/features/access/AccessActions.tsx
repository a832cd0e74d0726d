import type { ReactNode } from 'react';
import type { AccessRequest } from '../../api/types';
import { useT } from '../../i18n';

interface AccessActionsProps {
  request: AccessRequest;
  /** The caller's user name. */
  me: string | undefined;
  admin: boolean;
  busy: boolean;
  onDecide: (request: AccessRequest, verb: 'approve' | 'deny') => void;
  onRemove: (request: AccessRequest) => void;
}

/** Approve / Deny (admins, not on their own request) and Withdraw (own open request) or Revoke (admins, someone's approved one). */
export function AccessActions({ request, me, admin, busy, onDecide, onRemove }: AccessActionsProps): ReactNode {
  const t = useT();
  const own = request.requester === me;
  const open = request.phase === 'Pending' || request.phase === 'Approved';
  const removable = (own && open) || (admin && !own && request.phase === 'Approved');
  const ownTitle = own ? t('access.ownRequest') : undefined;
  return (
    <>
      {admin && request.phase === 'Pending' && (
        <span title={ownTitle}>
          <button type="button" className="small-button primary" disabled={busy || own} title={ownTitle} onClick={() => onDecide(request, 'approve')}>
            {t('access.approve')}
          </button>{' '}
          <button type="button" className="small-button danger" disabled={busy || own} title={ownTitle} onClick={() => onDecide(request, 'deny')}>
            {t('access.deny')}
          </button>{' '}
        </span>
      )}
      {removable && (
        <button type="button" className="small-button" disabled={busy} onClick={() => onRemove(request)}>
          {own ? t('access.withdraw') : t('access.revoke')}
        </button>
      )}
    </>
  );
}

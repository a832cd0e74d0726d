import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from '../../shared/ConfirmDialog';
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

/** The scope a request asks for, in words: permission, namespaces, kinds, cluster and TTL. */
function scopeText(request: AccessRequest): string {
  const namespaces = request.namespaces.length ? request.namespaces.join(', ') : '*';
  const resources = request.resources.length ? request.resources.join(', ') : '*';
  return `${request.permission} · ${namespaces} · ${resources} · ${request.cluster} · ${request.ttl}`;
}

/** The confirmation of a decision: it names the requester and the scope, and takes a comment for them. */
function DecideDialog(props: {
  request: AccessRequest;
  verb: 'approve' | 'deny';
  busy: boolean;
  onDecide: (comment: string) => void;
  onCancel: () => void;
}): ReactNode {
  const t = useT();
  const [comment, setComment] = useState('');
  const { request, verb } = props;
  return (
    <ConfirmDialog
      title={t(verb === 'approve' ? 'access.approveTitle' : 'access.denyTitle', { requester: request.requester })}
      confirmLabel={t(verb === 'approve' ? 'access.approve' : 'access.deny')}
      cancelLabel={t('access.cancel')}
      danger={verb === 'deny'}
      busy={props.busy}
      onConfirm={() => props.onDecide(comment.trim())}
      onCancel={props.onCancel}
    >
      <p>{scopeText(request)}</p>
      {request.reason && <p className="muted">{request.reason}</p>}
      <label className="field">
        <span>{t('access.comment')}</span>
        <textarea rows={2} maxLength={2000} value={comment} onChange={(event) => setComment(event.target.value)} />
      </label>
    </ConfirmDialog>
  );
}

/** Approve / Deny of a pending request, each after its confirmation; disabled on the admin's own request. */
function DecideButtons({ request, own, action }: { request: AccessRequest; own: boolean; action: ActionState }): ReactNode {
  const client = useApi();
  const t = useT();
  const [verb, setVerb] = useState<'approve' | 'deny' | undefined>(undefined);
  const ownTitle = own ? t('access.ownRequest') : undefined;
  const decide = (chosen: 'approve' | 'deny', comment: string): void =>
    void action.act(async () => {
      await client.call('POST', `/api/access-requests/{id}/${chosen}`, { path: { id: request.id }, body: comment ? { comment } : {} });
      setVerb(undefined);
      return t(chosen === 'approve' ? 'access.approved' : 'access.denied', { requester: request.requester });
    });
  return (
    <span title={ownTitle}>
      <button type="button" className="small-button primary" disabled={action.busy || own} title={ownTitle} onClick={() => setVerb('approve')}>
        {t('access.approve')}
      </button>{' '}
      <button type="button" className="small-button danger" disabled={action.busy || own} title={ownTitle} onClick={() => setVerb('deny')}>
        {t('access.deny')}
      </button>{' '}
      {verb && (
        <DecideDialog request={request} verb={verb} busy={action.busy} onDecide={(comment) => decide(verb, comment)} onCancel={() => setVerb(undefined)} />
      )}
    </span>
  );
}

/** Withdraw (own request) or Revoke (an admin, someone else's). */
function RemoveButton({ request, own, action }: { request: AccessRequest; own: boolean; action: ActionState }): ReactNode {
  const client = useApi();
  const t = useT();
  const remove = (): void =>
    void action.act(async () => {
      await client.call('DELETE', '/api/access-requests/{id}', { path: { id: request.id } });
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

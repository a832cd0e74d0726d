import { useState, type FormEvent, type ReactNode } from 'react';
import { SelectField } from '../../shared/SelectField';
import { Modal } from '../../shared/Modal';
import { TextField } from '../../shared/TextField';
import { createPortal } from 'react-dom';
import type { AccessNeeded, AccessRequest } from '@pilothouse/wire/types';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { useAccessScope } from '../../shared/access-context';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { accessRequestBody, fieldsOf, ttlChoices } from './access-request';
import { useRequestState } from './use-request-state';

interface DialogProps {
  /** The scope to ask for (an AI tool call's accessNeeded); the page's scope otherwise. */
  prefill?: AccessNeeded;
  onDone: (request: AccessRequest) => void;
  onCancel: () => void;
}

function RequestAccessDialog({ prefill, onDone, onCancel }: DialogProps): ReactNode {
  const client = useApi();
  const t = useT();
  const scope = useAccessScope();
  const initial = prefill ? fieldsOf(prefill) : { namespace: scope.namespace ?? '', resource: scope.resource ?? '' };
  const [fields, setFields] = useState({ ...initial, ttl: '1h', reason: '' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      onDone(await client.call('POST', '/api/access-requests', { body: accessRequestBody(fields) }));
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };

  return createPortal(
    <Modal labelledBy="request-access-title" onCancel={onCancel} onKeyDown={(event) => event.key === 'Escape' && event.stopPropagation()}>
      <form onSubmit={(event) => void submit(event)}>
        <h2 id="request-access-title">{t('access.dialog.title')}</h2>
        <div className="dialog-body form-stack">
          <p className="muted small">{t('access.dialog.intro')}</p>
          <TextField
            label={t('access.namespace')}
            value={fields.namespace}
            placeholder={t('access.all')}
            onValue={(namespace) => setFields({ ...fields, namespace })}
          />
          <TextField
            label={t('access.resource')}
            value={fields.resource}
            placeholder={t('access.all')}
            onValue={(resource) => setFields({ ...fields, resource })}
          />
          <SelectField label={t('access.ttl')} value={fields.ttl} options={ttlChoices} onValue={(ttl) => setFields({ ...fields, ttl })} />
          <label className="field">
            <span>{t('access.reason')}</span>
            <textarea rows={3} maxLength={2000} value={fields.reason} onChange={(event) => setFields({ ...fields, reason: event.target.value })} />
          </label>
          <ErrorNotice error={error} compact />
        </div>
        <div className="dialog-actions">
          <button type="button" onClick={onCancel} disabled={busy}>
            {t('access.cancel')}
          </button>
          <button type="submit" className="primary" disabled={busy}>
            {t('access.send')}
          </button>
        </div>
      </form>
    </Modal>,
    document.body,
  );
}

/** The filed request's state, kept current while it waits for review. */
function RequestState({ filed }: { filed: AccessRequest }): ReactNode {
  const t = useT();
  const request = useRequestState(filed);
  const message = request.phase === 'Pending' ? 'access.requested' : request.phase === 'Approved' ? 'access.granted' : 'access.notGranted';
  return (
    <p className="notice-hint" role="status">
      {t(message)} <span className={`badge access-phase-${request.phase.toLowerCase()}`}>{t(`access.phase.${request.phase}`)}</span>
    </p>
  );
}

/** "Request access" under an approval_required notice (or an AI tool call's refusal): a dialog that asks for a grant, then its state. */
export function RequestAccess({ prefill }: { prefill?: AccessNeeded }): ReactNode {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState<AccessRequest | null>(null);
  if (requested) return <RequestState filed={requested} />;
  return (
    <div className="notice-action">
      <button type="button" className="small-button" onClick={() => setOpen(true)}>
        {t('access.request')}
      </button>
      {open && (
        <RequestAccessDialog
          prefill={prefill}
          onCancel={() => setOpen(false)}
          onDone={(request) => {
            setOpen(false);
            setRequested(request);
          }}
        />
      )}
    </div>
  );
}

import { useState, type ReactNode } from 'react';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { ConfirmDialog } from '../../shared/ConfirmDialog';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { objectPath, type ResourceTarget } from '../../shared/resource-target';

/** Delete with a confirmation dialog (shown to admins only; the service decides anyway). */
export function DeleteButton({ target, onDeleted }: { target: ResourceTarget; onDeleted: () => void }): ReactNode {
  const client = useApi();
  const t = useT();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const label = `${target.resource}/${target.name}`;

  const remove = async (): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      await client.request('DELETE', objectPath(target), { query: { namespace: target.namespace } });
      setConfirming(false);
      onDeleted();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" className="danger" onClick={() => setConfirming(true)}>
        {t('delete.button')}
      </button>
      {confirming && (
        <ConfirmDialog
          title={t('delete.title', { target: label })}
          confirmLabel={t('delete.confirm')}
          cancelLabel={t('delete.cancel')}
          busy={busy}
          danger
          onConfirm={() => void remove()}
          onCancel={() => {
            setConfirming(false);
            setError(undefined);
          }}
        >
          <p>{t('delete.body', { target: label })}</p>
          <ErrorNotice error={error} />
        </ConfirmDialog>
      )}
    </>
  );
}

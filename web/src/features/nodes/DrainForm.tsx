import { useState, type FormEvent, type ReactNode } from 'react';
import { useT, type MessageKey } from '../../i18n';
import { ConfirmDialog } from '../../shared/ConfirmDialog';
import { drainFlags, type DrainOptions } from './node-api';

interface DrainFormProps {
  node: string;
  disabled: boolean;
  onDrain: (options: DrainOptions) => void;
}

const options: { key: keyof DrainOptions; label: MessageKey }[] = [
  { key: 'ignoreDaemonSets', label: 'node.ignoreDaemonSets' },
  { key: 'deleteLocalData', label: 'node.deleteLocalData' },
  { key: 'force', label: 'node.force' },
];

/** The drain options and button; a confirm dialog shows the kubectl line before anything happens. */
export function DrainForm({ node, disabled, onDrain }: DrainFormProps): ReactNode {
  const t = useT();
  const [chosen, setChosen] = useState<DrainOptions>({ ignoreDaemonSets: true, deleteLocalData: false, force: false });
  const [confirming, setConfirming] = useState(false);
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    setConfirming(true);
  };
  return (
    <>
      <form className="drain-form" onSubmit={submit} aria-labelledby="drain-heading">
        <h3 id="drain-heading">{t('node.drain')}</h3>
        {options.map(({ key, label }) => (
          <label key={key} className="checkbox-field">
            <input type="checkbox" checked={chosen[key]} onChange={(event) => setChosen({ ...chosen, [key]: event.target.checked })} />
            {t(label)}
          </label>
        ))}
        <button type="submit" className="danger" disabled={disabled}>
          {t('node.drainButton')}
        </button>
      </form>
      {confirming && (
        <ConfirmDialog
          title={t('node.drainTitle', { node })}
          confirmLabel={t('node.drainConfirm')}
          cancelLabel={t('delete.cancel')}
          danger
          onConfirm={() => {
            setConfirming(false);
            onDrain(chosen);
          }}
          onCancel={() => setConfirming(false)}
        >
          <p>{t('node.drainBody', { node })}</p>
          <p className="mono small">
            kubectl drain {node} {drainFlags(chosen)}
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}

import { type ReactNode } from 'react';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import type { ActionState } from '../../shared/use-action';

interface CordonControlsProps {
  node: string;
  action: ActionState;
  /** True while a drain runs (the buttons wait). */
  disabled: boolean;
}

/** Cordon / Uncordon buttons; the outcome reads "before → after". */
export function CordonControls({ node, action, disabled }: CordonControlsProps): ReactNode {
  const client = useApi();
  const t = useT();
  const state = (value: boolean | undefined): string => t(value ? 'node.unschedulable' : 'node.schedulable');
  const cordon = (verb: 'cordon' | 'uncordon'): void =>
    void action.act(async () => {
      const result = await client.call('POST', `/api/node/${verb}`, { body: { name: node } });
      return t('node.cordonResult', { node: result.name, before: state(result.before?.unschedulable), after: state(result.after?.unschedulable) });
    });
  return (
    <>
      <p className="inline-form">
        <button type="button" onClick={() => cordon('cordon')} disabled={action.busy || disabled}>
          {t('node.cordon')}
        </button>
        <button type="button" onClick={() => cordon('uncordon')} disabled={action.busy || disabled}>
          {t('node.uncordon')}
        </button>
      </p>
      {action.message && (
        <p className="notice notice-ok" role="status">
          {action.message}
        </p>
      )}
      <ErrorNotice error={action.error} onDismiss={action.dismiss} />
    </>
  );
}

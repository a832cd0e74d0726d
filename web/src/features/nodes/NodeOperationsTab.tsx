import { useCallback, type ReactNode } from 'react';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { useAction } from '../../shared/use-action';
import { useLoad } from '../../shared/use-load';
import { objectPath, targetKey, type ResourceTarget } from '../../shared/resource-target';
import { CordonControls } from './CordonControls';
import { DrainForm } from './DrainForm';
import { DrainProgressView } from './DrainProgressView';
import type { NodeObject } from './node-api';
import { useDrain } from './use-drain';

/** Cordon / Uncordon and Drain (with live progress) of a node; admins only (the API enforces it). */
export function NodeOperationsTab({ target }: { target: ResourceTarget }): ReactNode {
  const client = useApi();
  const t = useT();
  const load = useCallback((signal: AbortSignal) => client.json<NodeObject>('GET', objectPath(target), { signal }), [client, target]);
  const node = useLoad(targetKey(target), load);
  const unschedulable = node.data?.spec?.unschedulable === true;
  const action = useAction(() => node.reload());
  const drain = useDrain(target.name, () => node.reload());

  return (
    <div className="node-ops">
      <ErrorNotice error={node.error} />
      {node.data && <p>{t('node.state', { state: t(unschedulable ? 'node.unschedulable' : 'node.schedulable') })}</p>}
      <CordonControls node={target.name} action={action} disabled={drain.draining} />
      <DrainForm node={target.name} disabled={action.busy || drain.draining} onDrain={(options) => void drain.start(options)} />
      <ErrorNotice error={drain.error} onDismiss={drain.dismissError} />
      {drain.progress && <DrainProgressView node={target.name} progress={drain.progress} draining={drain.draining} />}
    </div>
  );
}

import type { ReactNode } from 'react';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { useAction } from '../../shared/use-action';
import { useApiQuery } from '../../shared/use-api-query';
import { objectParams, type ResourceTarget } from '../../shared/resource-target';
import { CordonControls } from './CordonControls';
import { DrainForm } from './DrainForm';
import { DrainProgressView } from './DrainProgressView';
import type { NodeObject } from './node-api';
import { useDrain } from './use-drain';

/** Cordon / Uncordon and Drain (with live progress) of a node; admins only (the API enforces it). */
export function NodeOperationsTab({ target }: { target: ResourceTarget }): ReactNode {
  const t = useT();
  const node = useApiQuery('/api/k8s/{resource}/{name}', objectParams(target));
  const unschedulable = (node.data as NodeObject | undefined)?.spec?.unschedulable === true;
  const action = useAction(() => void node.refetch());
  const drain = useDrain(target.name, () => void node.refetch());

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

import { useCallback, type ReactNode } from 'react';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { DataTable } from '../../shared/DataTable';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { useLoad } from '../../shared/use-load';
import { columnsOf } from '../../shared/columns';
import { itemColumns, itemKey } from '../../shared/item-columns';
import { targetKey, type ResourceTarget } from '../../shared/resource-target';
import { podsPath, type NodePods } from './node-api';

/** Pods scheduled on a node, with the pods list's columns. */
export function NodePodsTab({ target }: { target: ResourceTarget }): ReactNode {
  const client = useApi();
  const t = useT();
  const load = useCallback((signal: AbortSignal) => client.json<NodePods>('GET', podsPath(target.name), { signal }), [client, target]);
  const pods = useLoad(`${targetKey(target)}/pods`, load);
  const items = pods.data?.items ?? [];
  return (
    <div className="node-pods">
      <ErrorNotice error={pods.error} />
      {pods.loading && <p className="muted">{t('tab.loading')}</p>}
      {pods.data && <p className="muted small">{t('node.podsTotal', { count: pods.data.total })}</p>}
      {items.length > 0 && (
        <DataTable columns={itemColumns(columnsOf(items))} rows={items} rowKey={itemKey} caption={t('node.podsCaption', { node: target.name })} compact />
      )}
    </div>
  );
}

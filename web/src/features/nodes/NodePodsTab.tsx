import type { ReactNode } from 'react';
import { useT } from '../../i18n';
import { DataTable } from '../../shared/DataTable';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { useApiQuery } from '../../shared/use-api-query';
import { columnsOf } from '../../shared/columns';
import { itemColumns, itemKey } from '../../shared/item-columns';
import type { ResourceTarget } from '../../shared/resource-target';

/** Pods scheduled on a node, with the pods list's columns. */
export function NodePodsTab({ target }: { target: ResourceTarget }): ReactNode {
  const t = useT();
  const pods = useApiQuery('/api/nodes/{name}/pods', { path: { name: target.name } });
  const items = pods.data?.items ?? [];
  return (
    <div className="node-pods">
      <ErrorNotice error={pods.error} />
      {pods.isFetching && <p className="muted">{t('tab.loading')}</p>}
      {pods.data && <p className="muted small">{t('node.podsTotal', { count: pods.data.total })}</p>}
      {items.length > 0 && (
        <DataTable columns={itemColumns(columnsOf(items))} rows={items} rowKey={itemKey} caption={t('node.podsCaption', { node: target.name })} compact />
      )}
    </div>
  );
}

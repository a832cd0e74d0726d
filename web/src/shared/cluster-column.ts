import type { Translate } from '../i18n';
import type { Column } from './DataTable';

/**
 * The Cluster column of lists whose items name their cluster (access requests, port forwards, reports: objects
 * kept in the home cluster about any cluster, ADR 0035). The page's client filters those lists to the page's
 * cluster (ADR 0037), so the column tells the user which cluster the rows are about.
 */
export function clusterColumn<T extends { cluster: string }>(t: Translate): Column<T> {
  return { key: 'cluster', header: t('clusters.name'), cell: (row) => row.cluster, className: 'nowrap', sortValue: (row) => row.cluster };
}

import { useMemo } from 'react';
import { useApiQuery } from '../../shared/use-api-query';
import { objectPath, type PaletteItem } from './palette-items';

const objectKinds = ['pods', 'deployments', 'services', 'nodes'] as const;
const perKind = 300;

/** Objects of the common kinds in the current namespace (the first few hundred each), once the search has text. */
export function useObjectItems(namespace: string, search: string): PaletteItem[] {
  const enabled = search.trim().length > 1 && !search.startsWith(':');
  const query = { namespace: namespace || undefined, limit: perKind };
  const pods = useApiQuery('/api/k8s/{resource}', { path: { resource: 'pods' }, query, enabled });
  const deployments = useApiQuery('/api/k8s/{resource}', { path: { resource: 'deployments' }, query, enabled });
  const services = useApiQuery('/api/k8s/{resource}', { path: { resource: 'services' }, query, enabled });
  const nodes = useApiQuery('/api/k8s/{resource}', { path: { resource: 'nodes' }, query: { limit: perKind }, enabled });
  const lists = [pods.data, deployments.data, services.data, nodes.data];
  return useMemo(
    () =>
      lists.flatMap((list, index) =>
        (list?.items ?? []).map((item) => {
          const kind = objectKinds[index] ?? 'pods';
          return {
            id: `object:${kind}/${item.namespace ?? ''}/${item.name}`,
            group: 'objects' as const,
            label: item.name,
            hint: item.namespace ? `${kind} · ${item.namespace}` : kind,
            keywords: [kind],
            to: objectPath(kind, item.name, item.namespace),
            target: { resource: kind, name: item.name, namespace: item.namespace },
          };
        }),
      ),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the four lists are the inputs
    [pods.data, deployments.data, services.data, nodes.data],
  );
}

import { useQueries } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { useLiveList } from '../../shared/use-live-list';
import { objectParams, targetKey } from '../../shared/resource-target';
import { ingressServices, parseSelectorColumn, selects, templateLabels, type ObjectShape, type RelatedLink } from './related';
import { RelatedLinks } from './RelatedLinks';

/** The ingresses of the namespace (full objects: their backends are not in the list's columns) that send traffic to one of `services`. */
function useRoutingIngresses(namespace: string | undefined, services: string[]): { links: RelatedLink[]; error: unknown; loaded: boolean } {
  const client = useApi();
  const list = useLiveList(client, 'ingresses', namespace);
  const names = (list.data?.items ?? []).map((item) => item.name);
  const objects = useQueries({
    queries: names.map((name) => {
      const target = { resource: 'ingresses', namespace, name };
      return {
        queryKey: ['object', targetKey(target)],
        queryFn: ({ signal }: { signal: AbortSignal }) =>
          client.call('GET', '/api/k8s/{resource}/{name}', { ...objectParams(target), signal }) as Promise<ObjectShape>,
        enabled: services.length > 0,
      };
    }),
  });
  const links = objects
    .flatMap((query) => (query.data && ingressServices(query.data).some((name) => services.includes(name)) ? [query.data] : []))
    .map((ingress): RelatedLink => ({ resource: 'ingresses', namespace, name: ingress.metadata?.name ?? '', relation: 'ingresses' }));
  return { links, error: list.error ?? objects.find((query) => query.error)?.error, loaded: !!list.data && objects.every((query) => !query.isLoading) };
}

/** What routes traffic to a workload: the Services whose selector matches its pod template, and the Ingresses in front of them. */
export function RoutedBy({ object, namespace }: { object: ObjectShape; namespace: string | undefined }): ReactNode {
  const t = useT();
  const client = useApi();
  const labels = templateLabels(object);
  const serviceList = useLiveList(client, 'services', namespace);
  const services = (serviceList.data?.items ?? [])
    .filter((item) => selects(parseSelectorColumn(item.selector), labels))
    .map((item): RelatedLink => ({ resource: 'services', namespace: item.namespace ?? namespace, name: item.name, relation: 'services' }));
  const ingresses = useRoutingIngresses(
    namespace,
    services.map((service) => service.name),
  );
  return (
    <>
      <section aria-label={t('related.services')}>
        <h3>{t('related.services')}</h3>
        <ErrorNotice error={serviceList.error} compact />
        {serviceList.data && services.length === 0 && <p className="muted">{t('objects.related.none')}</p>}
        <RelatedLinks links={services} />
      </section>
      <section aria-label={t('related.ingresses')}>
        <h3>{t('related.ingresses')}</h3>
        <ErrorNotice error={ingresses.error} compact />
        {serviceList.data && ingresses.loaded && ingresses.links.length === 0 && <p className="muted">{t('objects.related.none')}</p>}
        <RelatedLinks links={ingresses.links} />
      </section>
    </>
  );
}

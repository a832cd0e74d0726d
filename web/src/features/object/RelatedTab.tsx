import type { ReactNode } from 'react';
import { useApi } from '../../shared/api-context';
import { useT, type MessageKey } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { useLiveList } from '../../shared/use-live-list';
import type { ResourceTarget } from '../../shared/resource-target';
import { childKinds, nodeLinks, ownerLinks, routedKinds, selectorOf, type RelatedLink } from './related';
import { RelatedLinks as LinkList } from './RelatedLinks';
import { RoutedBy } from './RoutedBy';
import { useObject } from './use-object';

/** The objects a selector picks (pods of a service or workload, replica sets of a deployment), live. */
function Children({ resource, namespace, selector }: { resource: 'pods' | 'replicasets'; namespace?: string; selector: string }): ReactNode {
  const client = useApi();
  const t = useT();
  const list = useLiveList(client, resource, namespace, selector);
  const links = (list.data?.items ?? []).map((item): RelatedLink => ({ resource, namespace: item.namespace, name: item.name, relation: resource }));
  return (
    <section aria-label={t(`objects.related.${resource}` as MessageKey)}>
      <h3>
        {t(`objects.related.${resource}` as MessageKey)} <span className="muted small mono">{selector}</span>
      </h3>
      <ErrorNotice error={list.error} compact />
      {list.data && links.length === 0 && <p className="muted">{t('objects.related.none')}</p>}
      <LinkList links={links} />
    </section>
  );
}

/** Related objects: owners, the node a pod runs on, the children found by the object's selector, and the Services and Ingresses routing to a workload. */
export function RelatedTab({ target }: { target: ResourceTarget }): ReactNode {
  const t = useT();
  const object = useObject(target);
  if (!object.data) return <ErrorNotice error={object.error} />;
  const owners = ownerLinks(object.data);
  const node = nodeLinks(object.data);
  const selector = selectorOf(object.data);
  const kinds = selector ? childKinds(object.data.kind) : [];
  return (
    <div className="related-tab">
      <section aria-label={t('objects.related.owners')}>
        <h3>{t('objects.related.owners')}</h3>
        {owners.length === 0 ? <p className="muted">{t('objects.related.none')}</p> : <LinkList links={owners} />}
      </section>
      {node.length > 0 && (
        <section aria-label={t('related.runsOn')}>
          <h3>{t('related.runsOn')}</h3>
          <LinkList links={node} />
        </section>
      )}
      {selector && kinds.map((kind) => <Children key={kind} resource={kind} namespace={target.namespace} selector={selector} />)}
      {routedKinds.has(object.data.kind ?? '') && <RoutedBy object={object.data} namespace={target.namespace} />}
    </div>
  );
}

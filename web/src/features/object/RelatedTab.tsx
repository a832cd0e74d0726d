import type { ReactNode } from 'react';
import { Link, objectRoutePath } from '../../shared/router';
import { useApi } from '../../shared/api-context';
import { useT, type MessageKey } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { useLiveList } from '../../shared/use-live-list';
import type { ResourceTarget } from '../../shared/resource-target';
import { childKinds, ownerLinks, selectorOf, type RelatedLink } from './related';
import { useObject } from './use-object';

function LinkList({ links }: { links: RelatedLink[] }): ReactNode {
  return (
    <ul className="related-list">
      {links.map((link) => (
        <li key={`${link.resource}/${link.namespace ?? ''}/${link.name}`}>
          <span className="muted small">{link.resource} </span>
          <Link to={objectRoutePath(link)}>{link.name}</Link>
        </li>
      ))}
    </ul>
  );
}

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

/** Related objects: owners (and a pod's node), and the children found by the object's selector. */
export function RelatedTab({ target }: { target: ResourceTarget }): ReactNode {
  const t = useT();
  const object = useObject(target);
  if (!object.data) return <ErrorNotice error={object.error} />;
  const owners = ownerLinks(object.data);
  const selector = selectorOf(object.data);
  const kinds = selector ? childKinds(object.data.kind) : [];
  return (
    <div className="related-tab">
      <section aria-label={t('objects.related.owners')}>
        <h3>{t('objects.related.owners')}</h3>
        {owners.length === 0 ? <p className="muted">{t('objects.related.none')}</p> : <LinkList links={owners} />}
      </section>
      {selector && kinds.map((kind) => <Children key={kind} resource={kind} namespace={target.namespace} selector={selector} />)}
    </div>
  );
}

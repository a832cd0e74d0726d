import type { ReactNode } from 'react';
import { Link, objectRoutePath } from '../../shared/router';
import type { RelatedLink } from './related';

/** Links to related objects' pages, each with its resource type. */
export function RelatedLinks({ links }: { links: RelatedLink[] }): ReactNode {
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

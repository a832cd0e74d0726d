import type { ReactNode } from 'react';
import { Link, type Route } from '../../shared/router';
import { useT, type MessageKey } from '../../i18n';
import { pagePath, type PageRoute } from '../../shared/page-routes';

const helmPages = ['helm', 'helm-release', 'helm-install', 'helm-repositories'];

function PageLink({ to, label, current }: { to: PageRoute; label: MessageKey; current: boolean }): ReactNode {
  const t = useT();
  return (
    <li>
      <Link to={pagePath(to)} current={current}>
        {t(label)}
      </Link>
    </li>
  );
}

/** The navigation's first block: Overview, Helm, Port forwards, Reports. */
export function PageLinks({ route }: { route: Route }): ReactNode {
  return (
    <ul className="nav-pages">
      <PageLink to={{ page: 'overview' }} label="nav.overview" current={route.page === 'overview'} />
      <PageLink to={{ page: 'helm' }} label="nav.helm" current={helmPages.includes(route.page)} />
      <PageLink to={{ page: 'portforwards' }} label="nav.portforwards" current={route.page === 'portforwards'} />
      <PageLink to={{ page: 'reports' }} label="nav.reports" current={route.page === 'reports'} />
    </ul>
  );
}

/** The admin pages of this module (MCP servers). */
export function AdminPageLinks({ route }: { route: Route }): ReactNode {
  return <PageLink to={{ page: 'mcp' }} label="nav.mcp" current={route.page === 'mcp'} />;
}

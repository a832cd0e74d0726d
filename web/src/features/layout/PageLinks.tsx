import type { ReactNode } from 'react';
import { Link, type Route } from '../../shared/router';
import { useT, type MessageKey } from '../../i18n';
import { pagePath, type PageRoute } from '../../shared/page-routes';
import { useApiQuery } from '../../shared/use-api-query';
import type { components } from '@pilothouse/wire/types';
import { urgentCount, useProblems } from '../../shared/live-problems';

type Investigation = components['schemas']['Investigation'];

/** Investigations not finished yet. */
function openCount(items: readonly Investigation[]): number {
  return items.filter((item) => ['Pending', 'Running', undefined].includes(item.status?.phase)).length;
}

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

/** Investigations, with the count of those still pending or running. */
function InvestigationsLink({ current }: { current: boolean }): ReactNode {
  const t = useT();
  const list = useApiQuery('/api/investigations', { refetchInterval: 10_000 });
  const count = openCount(list.data?.items ?? []);
  return (
    <li>
      <Link to={pagePath({ page: 'investigations' })} current={current}>
        {t('nav.investigations')}
        {count > 0 && (
          <span className="nav-count" aria-label={t('investigations.navCount', { count })}>
            {' '}
            {count}
          </span>
        )}
      </Link>
    </li>
  );
}

/** Problems, with the live count of critical and warning findings the caller may see. */
function ProblemsLink({ current }: { current: boolean }): ReactNode {
  const t = useT();
  const live = useProblems();
  const count = urgentCount(live.items ?? []);
  return (
    <li>
      <Link to={pagePath({ page: 'problems' })} current={current}>
        {t('nav.problems')}
        {count > 0 && (
          <span className="nav-count nav-count-problems" data-testid="nav-problems-count" aria-label={t('problems.navCount', { count })}>
            {' '}
            {count}
          </span>
        )}
      </Link>
    </li>
  );
}

/** The navigation's first block: Overview, Problems, Helm, Port forwards, Reports, Investigations. */
export function PageLinks({ route }: { route: Route }): ReactNode {
  return (
    <ul className="nav-pages">
      <PageLink to={{ page: 'overview' }} label="nav.overview" current={route.page === 'overview'} />
      <ProblemsLink current={route.page === 'problems'} />
      <PageLink to={{ page: 'helm' }} label="nav.helm" current={helmPages.includes(route.page)} />
      <PageLink to={{ page: 'portforwards' }} label="nav.portforwards" current={route.page === 'portforwards'} />
      <PageLink to={{ page: 'reports' }} label="nav.reports" current={route.page === 'reports'} />
      <InvestigationsLink current={route.page === 'investigations'} />
    </ul>
  );
}

/** The admin pages of this module (MCP servers). */
export function AdminPageLinks({ route }: { route: Route }): ReactNode {
  return <PageLink to={{ page: 'mcp' }} label="nav.mcp" current={route.page === 'mcp'} />;
}

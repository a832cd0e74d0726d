import { lazy, Suspense, type ReactNode } from 'react';
import { useT } from '../i18n';
import type { PageRoute } from '../shared/page-routes';
import { NotFoundPage } from '../shared/NotFound';

// Every page of this module is its own chunk: the initial bundle carries only the shell and the lists.
const OverviewPage = lazy(() => import('../features/overview/OverviewPage').then((module) => ({ default: module.OverviewPage })));
const HelmReleasesPage = lazy(() => import('../features/helm/HelmReleasesPage').then((module) => ({ default: module.HelmReleasesPage })));
const HelmReleasePage = lazy(() => import('../features/helm/HelmReleasePage').then((module) => ({ default: module.HelmReleasePage })));
const HelmInstallPage = lazy(() => import('../features/helm/HelmInstallPage').then((module) => ({ default: module.HelmInstallPage })));
const HelmRepositoriesPage = lazy(() => import('../features/helm/HelmRepositoriesPage').then((module) => ({ default: module.HelmRepositoriesPage })));
const PortForwardsPage = lazy(() => import('../features/portforwards/PortForwardsPage').then((module) => ({ default: module.PortForwardsPage })));
const McpServersPage = lazy(() => import('../features/mcp/McpServersPage').then((module) => ({ default: module.McpServersPage })));
const AllClustersPage = lazy(() => import('../features/clusters/AllClustersPage').then((module) => ({ default: module.AllClustersPage })));
const InvestigationsPage = lazy(() => import('../features/investigations/InvestigationsPage').then((module) => ({ default: module.InvestigationsPage })));
const ProblemsPage = lazy(() => import('../features/problems/ProblemsPage').then((module) => ({ default: module.ProblemsPage })));
const UsagePage = lazy(() => import('../features/usage/UsagePage').then((module) => ({ default: module.UsagePage })));
const ReportsPage = lazy(() => import('../features/reports/ReportsPage').then((module) => ({ default: module.ReportsPage })));

/** The pages that take no namespace. */
function GlobalPageOf({ route }: { route: PageRoute }): ReactNode {
  if (route.page === 'usage') return <UsagePage />;
  if (route.page === 'clusters') return <AllClustersPage />;
  if (route.page === 'mcp') return <McpServersPage />;
  return <HelmRepositoriesPage />;
}

function PageOf({ route, namespace }: { route: PageRoute; namespace: string }): ReactNode {
  switch (route.page) {
    case 'overview':
      return <OverviewPage namespace={namespace} />;
    case 'helm':
      return <HelmReleasesPage namespace={namespace} />;
    case 'helm-release':
      return <HelmReleasePage namespace={route.namespace} name={route.name} />;
    case 'helm-install':
      return <HelmInstallPage namespace={namespace} />;
    case 'portforwards':
      return <PortForwardsPage namespace={namespace} />;
    case 'reports':
      return <ReportsPage namespace={namespace} />;
    case 'problems':
      return <ProblemsPage namespace={namespace} />;
    case 'not-found':
      return <NotFoundPage />;
    default:
      return <GlobalPageOf route={route} />;
  }
}

/** A stage-two page, loaded on demand (a spinner line while its chunk arrives). */
export function StagePage({ route, namespace }: { route: PageRoute; namespace: string }): ReactNode {
  const t = useT();
  return (
    <Suspense fallback={<p className="muted pad">{t('common.loading')}</p>}>
      {route.page === 'investigations' ? <InvestigationsPage namespace={namespace} /> : <PageOf route={route} namespace={namespace} />}
    </Suspense>
  );
}

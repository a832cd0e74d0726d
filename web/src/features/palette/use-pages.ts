import { useMemo } from 'react';
import { useT } from '../../i18n';
import type { PageEntry } from './palette-items';

/** The app's pages as the palette lists them. */
export function usePages(): PageEntry[] {
  const t = useT();
  return useMemo(
    () => [
      { path: '/overview', label: t('nav.overview') },
      { path: '/problems', label: t('nav.problems') },
      { path: '/helm', label: t('nav.helm') },
      { path: '/helm/install', label: t('helm.installTitle') },
      { path: '/helm/repositories', label: t('helm.repositoriesTitle') },
      { path: '/port-forwards', label: t('nav.portforwards') },
      { path: '/reports', label: t('nav.reports') },
      { path: '/access-requests', label: t('nav.access'), hideForViewer: true },
      { path: '/settings', label: t('nav.settings') },
      { path: '/admin/audit', label: t('nav.audit'), adminOnly: true },
      { path: '/admin/users', label: t('nav.users'), adminOnly: true },
      { path: '/admin/mcp', label: t('nav.mcp'), adminOnly: true },
    ],
    [t],
  );
}

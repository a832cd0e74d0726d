import type { ReactNode } from 'react';
import type { SignedIn } from '../../api/client';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { ConnectionBanner, HealthIndicator } from './ConnectionStatus';
import { useConnection } from './use-connection';
import { ClusterSwitcher } from '../clusters/ClusterSwitcher';
import { NamespaceSelect } from './NamespaceSelect';
import { ThemeToggle } from '../theme/ThemeToggle';
import { PaletteLauncher } from '../palette/PaletteLauncher';

interface HeaderProps {
  session: SignedIn;
  namespace: string;
  onNamespace: (namespace: string) => void;
}

/** Top bar: brand, the cluster switcher, cluster health, namespace, the user and role, log out. */
export function Header({ session, namespace, onNamespace }: HeaderProps): ReactNode {
  const client = useApi();
  const t = useT();
  const connection = useConnection();
  return (
    <header className="topbar">
      <ConnectionBanner reachable={connection.reachable} />
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">
          ⎈
        </span>{' '}
        {t('app.title')}
      </div>
      <ClusterSwitcher />
      <HealthIndicator connection={connection} />
      <NamespaceSelect value={namespace} onChange={onNamespace} />
      <div className="topbar-spacer" />
      <PaletteLauncher role={session.role} namespace={namespace} />
      <ThemeToggle />
      <div className="user" aria-label={`${session.username} (${session.role})`}>
        <span className="user-name">{session.username}</span> <span className={`role role-${session.role}`}>{session.role}</span>
      </div>
      <button type="button" className="topbar-button" onClick={() => void client.logout().then((url) => url && window.location.assign(url))}>
        {t('header.logout')}
      </button>
    </header>
  );
}

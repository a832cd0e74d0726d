import { useCallback, useState, type ReactNode } from 'react';
import type { SignedIn } from '../api/client';
import { RoleChangeNotice, SessionEndWarning } from '../features/auth/SessionEndWarning';
import { AuditPage } from '../features/admin/AuditPage';
import { UsersPage } from '../features/admin/UsersPage';
import { AccessRequestsPage } from '../features/access/AccessRequestsPage';
import { RequestAccess } from '../features/access/RequestAccess';
import { ChatPanel } from '../features/chat/ChatPanel';
import { Header } from '../features/layout/Header';
import { Nav } from '../features/layout/Nav';
import { StagePage } from './StagePage';
import { kindOf } from '../shared/columns';
import { ResourcePage } from '../features/resources/ResourcePage';
import { ObjectPage } from '../features/object/ObjectPage';
import type { ResourceTarget } from '../shared/resource-target';
import { SettingsPage } from '../features/settings/SettingsPage';
import { useT } from '../i18n';
import { AccessScopeProvider, ApprovalActionProvider, type ApprovalAction } from '../shared/access-context';
import { useLocationCluster, useRoute, type Route } from '../shared/router';
import { ClusterScope } from './ClusterScope';
import { useStoredState } from './stored-state';

const requestAccess: ApprovalAction = () => <RequestAccess />;

function Page({
  route,
  namespace,
  selected,
  onSelect,
}: {
  route: Route;
  namespace: string;
  selected: ResourceTarget | null;
  onSelect: (target: ResourceTarget | null) => void;
}): ReactNode {
  switch (route.page) {
    case 'resources':
      return <ResourcePage key={route.kind} resource={route.kind} namespace={namespace} selected={selected} onSelect={onSelect} />;
    case 'object':
      return <ObjectPage key={`${route.kind}/${route.namespace ?? ''}/${route.name}`} target={objectTarget(route)} tab={route.tab} />;
    case 'audit':
      return <AuditPage />;
    case 'users':
      return <UsersPage />;
    case 'settings':
      return <SettingsPage />;
    case 'access':
      return <AccessRequestsPage />;
    default:
      return <StagePage route={route} namespace={namespace} />;
  }
}

/** The object an object page shows. */
function objectTarget(route: Extract<Route, { page: 'object' }>): ResourceTarget {
  return { resource: route.kind, namespace: route.namespace, name: route.name };
}

/** The selected object of one list; another list (kind or namespace) starts with nothing selected (adjusted while rendering, not in an effect). */
function useSelection(listKey: string): [ResourceTarget | null, (target: ResourceTarget | null) => void] {
  const [selected, setSelected] = useState<ResourceTarget | null>(null);
  const [selectedIn, setSelectedIn] = useState(listKey);
  if (selectedIn !== listKey) {
    setSelectedIn(listKey);
    setSelected(null);
  }
  return [selected, setSelected];
}

/** What the AI pilot is told about the screen: the namespace, and the open object as `<kind>/<name>`. */
function chatContextOf(open: ResourceTarget | null, namespace: string): { namespace: string; resource?: string } {
  return { namespace: open?.namespace ?? namespace, resource: open ? `${kindOf(open.resource)}/${open.name}` : undefined };
}

/**
 * The signed-in layout: header, navigation, the page, the AI pilot; all of it on the cluster the URL names
 * (`?cluster=`, ADR 0035). The page is mounted anew on another cluster, so no state of one cluster's page
 * (a selection, a chart's samples) is shown as another's.
 */
export function Shell({ session }: { session: SignedIn }): ReactNode {
  const t = useT();
  const route = useRoute();
  const cluster = useLocationCluster();
  const [namespace, setNamespace] = useStoredState('pilothouse.namespace', '');
  const [chatOpen, setChatOpen] = useStoredState('pilothouse.chatOpen', 'true');
  const routeKind = route.page === 'resources' ? route.kind : '';
  const [selected, setSelected] = useSelection(`${cluster}|${routeKind}|${namespace}`);
  const toggleChat = useCallback(() => setChatOpen(chatOpen === 'true' ? 'false' : 'true'), [chatOpen, setChatOpen]);

  const open = selected?.resource === routeKind ? selected : null;
  const chatContext = chatContextOf(route.page === 'object' ? objectTarget(route) : open, namespace);

  return (
    <div className={`shell ${chatOpen === 'true' ? 'with-chat' : 'without-chat'}`}>
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <ClusterScope cluster={cluster}>
        <ApprovalActionProvider action={session.role === 'viewer' ? null : requestAccess}>
          <AccessScopeProvider namespace={namespace} resource={routeKind || undefined}>
            <Header session={session} namespace={namespace} onNamespace={setNamespace} />
            <SessionEndWarning endsAt={session.session_ends_at} />
            <RoleChangeNotice />
            <Nav route={route} role={session.role} />
            <main id="main" key={cluster} className="main" tabIndex={-1}>
              <Page route={route} namespace={namespace} selected={open} onSelect={setSelected} />
            </main>
            <ChatPanel open={chatOpen === 'true'} onToggle={toggleChat} context={chatContext} />
          </AccessScopeProvider>
        </ApprovalActionProvider>
      </ClusterScope>
    </div>
  );
}

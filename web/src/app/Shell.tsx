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
import { routePath, useLocationCluster, useRoute, type Route } from '../shared/router';
import { PilotFocusProvider, type PilotFocus } from '../shared/pilot-focus';
import { ProblemsProvider } from '../shared/live-problems';
import type { ChatContextValue } from '../features/chat/use-chat';
import { ClusterScope } from './ClusterScope';
import { usePilotOpen } from './pilot-open';
import { useUrlNamespace, useUrlSelection } from './url-state';

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

/** What the AI pilot is told about the screen: the namespace, the open object as `<kind>/<name>`, the finding asked about. */
function chatContextOf(open: ResourceTarget | null, namespace: string, focus: PilotFocus | undefined): ChatContextValue {
  if (focus) return { namespace: focus.namespace ?? namespace, resource: focus.resource, finding: { id: focus.finding, label: focus.label } };
  return { namespace: open?.namespace ?? namespace, resource: open ? `${kindOf(open.resource)}/${open.name}` : undefined };
}

interface Focused {
  /** The page (path and cluster) it was asked on: another page drops it. */
  where: string;
  focus: PilotFocus;
  /** Counts the asks, so asking again starts the composer anew. */
  round: number;
}

/** The finding the pilot is asked about ("Ask the pilot"), while the page it was asked on stays open. */
function usePilotFocus(where: string, openChat: () => void): { focus?: Focused; ask: (focus: PilotFocus) => void; drop: () => void } {
  const [focused, setFocused] = useState<Focused>();
  const ask = useCallback(
    (focus: PilotFocus) => {
      setFocused((previous) => ({ where, focus, round: (previous?.round ?? 0) + 1 }));
      openChat();
    },
    [where, openChat],
  );
  const drop = useCallback(() => setFocused(undefined), []);
  return { focus: focused?.where === where ? focused : undefined, ask, drop };
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
  const [namespace, setNamespace] = useUrlNamespace();
  const [chatOpen, toggleChat, showChat] = usePilotOpen();
  const routeKind = route.page === 'resources' ? route.kind : '';
  const [selected, setSelected] = useUrlSelection(routeKind);
  const pilot = usePilotFocus(`${cluster}|${routePath(route)}`, showChat);

  const open = selected?.resource === routeKind ? selected : null;
  const chatContext = chatContextOf(route.page === 'object' ? objectTarget(route) : open, namespace, pilot.focus?.focus);
  const draft = pilot.focus && { key: `${pilot.focus.focus.finding}#${pilot.focus.round}`, text: pilot.focus.focus.question };

  return (
    <div className={`shell ${chatOpen ? 'with-chat' : 'without-chat'}`}>
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <ClusterScope cluster={cluster}>
        <ProblemsProvider>
          <PilotFocusProvider ask={pilot.ask}>
            <ApprovalActionProvider action={session.role === 'viewer' ? null : requestAccess}>
              <AccessScopeProvider namespace={namespace} resource={routeKind || undefined}>
                <Header session={session} namespace={namespace} onNamespace={setNamespace} />
                <SessionEndWarning endsAt={session.session_ends_at} />
                <RoleChangeNotice />
                <Nav route={route} role={session.role} />
                <main id="main" key={cluster} className="main" tabIndex={-1}>
                  <Page route={route} namespace={namespace} selected={open} onSelect={setSelected} />
                </main>
                <ChatPanel open={chatOpen} onToggle={toggleChat} context={chatContext} draft={draft} onDropFinding={pilot.drop} />
              </AccessScopeProvider>
            </ApprovalActionProvider>
          </PilotFocusProvider>
        </ProblemsProvider>
      </ClusterScope>
    </div>
  );
}

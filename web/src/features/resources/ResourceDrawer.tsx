import { lazy, Suspense, useState, type ReactNode } from 'react';
import { TabList } from '../../shared/TabList';
import { useObjectEditor } from '../editor/ObjectEditor';
import { useApi } from '../../shared/api-context';
import { Link, objectRoutePath } from '../../shared/router';
import { useT, type MessageKey } from '../../i18n';
import { AccessScopeProvider } from '../../shared/access-context';
import { DeleteButton } from './DeleteButton';
import { NodeOperationsTab } from '../nodes/NodeOperationsTab';
import { NodePodsTab } from '../nodes/NodePodsTab';
import { DeploymentHistoryTab, DeploymentScaleTab } from './DeploymentTabs';
import { LogsTab } from './LogsTab';
import type { ResourceTarget } from '../../shared/resource-target';
import { TextTab } from './TextTab';

// xterm.js is a chunk of its own, loaded when the Terminal tab is first used (CodeMirror: see useObjectEditor).
const TerminalTab = lazy(() => import('../terminal/TerminalTab').then((module) => ({ default: module.TerminalTab })));

type TabName = 'yaml' | 'describe' | 'logs' | 'terminal' | 'scale' | 'history' | 'nodePods' | 'nodeOps';

function tabsFor(resource: string, role: string | undefined): TabName[] {
  if (resource === 'nodes') return role === 'admin' ? ['yaml', 'describe', 'nodePods', 'nodeOps'] : ['yaml', 'describe', 'nodePods'];
  // A shell needs write access, as on the object's page.
  if (resource === 'pods') return role && role !== 'viewer' ? ['yaml', 'describe', 'logs', 'terminal'] : ['yaml', 'describe', 'logs'];
  if (resource === 'deployments') return ['yaml', 'describe', 'scale', 'history'];
  return ['yaml', 'describe'];
}

function TabBody({ tab, target }: { tab: TabName; target: ResourceTarget }): ReactNode {
  switch (tab) {
    case 'yaml':
      return <TextTab target={target} suffix="/yaml" />;
    case 'describe':
      return <TextTab target={target} suffix="/describe" />;
    case 'logs':
      return <LogsTab target={target} />;
    case 'terminal':
      return <TerminalTab target={target} />;
    case 'scale':
      return <DeploymentScaleTab target={target} />;
    case 'history':
      return <DeploymentHistoryTab target={target} />;
    case 'nodePods':
      return <NodePodsTab target={target} />;
    case 'nodeOps':
      return <NodeOperationsTab target={target} />;
  }
}

/**
 * Detail drawer of one object, with everything its page has to act on it, so the list stays in view:
 * tabs (arrow keys move between them; a pod's Terminal), Edit (the YAML editor with the server's dry
 * run) for users and admins, Delete for admins; "Open page" for the object's own page.
 */
export function ResourceDrawer({ target, onClose, onDeleted }: { target: ResourceTarget; onClose: () => void; onDeleted: () => void }): ReactNode {
  const t = useT();
  const role = useApi().current?.role;
  const tabs = tabsFor(target.resource, role);
  const [tab, setTab] = useState<TabName>('yaml');
  const editor = useObjectEditor(target, role !== 'viewer');

  return (
    <aside className="drawer" aria-labelledby="drawer-title" onKeyDown={(event) => event.key === 'Escape' && onClose()}>
      <header className="drawer-header">
        <div className="drawer-title">
          <span className="muted small">
            {target.resource}
            {target.namespace ? ` · ${target.namespace}` : ''}
          </span>
          <h2 id="drawer-title">{target.name}</h2>
        </div>
        {editor.editButton}
        <Link to={objectRoutePath(target)} className="button-link">
          {t('objects.openPage')}
        </Link>
        {role === 'admin' && <DeleteButton target={target} onDeleted={onDeleted} />}
        <button type="button" className="icon-button" onClick={onClose} aria-label={t('drawer.close')} title={t('drawer.close')}>
          ✕
        </button>
      </header>
      {editor.notice}
      <AccessScopeProvider namespace={target.namespace} resource={target.resource}>
        <Suspense fallback={<p className="muted pad">{t('tab.loading')}</p>}>
          {editor.editing ? (
            <div className="drawer-edit">{editor.panel}</div>
          ) : (
            <>
              <TabList
                label={t('drawer.tabs')}
                tabs={tabs}
                tab={tab}
                onTab={setTab}
                text={(name) => t(name === 'terminal' ? 'objects.tab.terminal' : (`tab.${name}` as MessageKey))}
                tabId={(name) => `tab-${name}`}
                panelId={(name) => `panel-${name}`}
              />
              <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="tab-panel">
                <TabBody tab={tab} target={target} />
              </div>
            </>
          )}
        </Suspense>
      </AccessScopeProvider>
    </aside>
  );
}

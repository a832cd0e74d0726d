import { Suspense, type ReactNode } from 'react';
import { TabList } from '../../shared/TabList';
import { useObjectEditor } from '../editor/ObjectEditor';
import { Link, navigate, objectRoutePath, routePath } from '../../shared/router';
import { useApi } from '../../shared/api-context';
import { useT, type MessageKey } from '../../i18n';
import { AccessScopeProvider } from '../../shared/access-context';
import { StartPortForward } from '../portforwards/StartPortForward';
import { DeleteButton } from '../resources/DeleteButton';
import { kindLabel } from '../resources/kinds';
import type { ResourceTarget } from '../../shared/resource-target';
import { pickTab, tabsFor, type ObjectTab } from './object-tabs';
import { ObjectTabBody } from './ObjectTabBody';
import { InvestigateButton } from '../investigations/InvestigateButton';
import { ManagedByNote } from './ManagedByNote';
import { ProblemBanner } from '../problems/ProblemBanner';
import { ApiError } from '@pilothouse/wire/wire-client';
import { NotFound } from '../../shared/NotFound';
import { useObject } from './use-object';
import './object.css';

/** Kinds a port forward starts from (a service forwards to a running pod it selects). */
const forwardable: ReadonlySet<string> = new Set(['pods', 'services']);

/** Start a port forward from a pod or service page (pick the port); nothing for other kinds. */
function ForwardFrom({ target }: { target: ResourceTarget }): ReactNode {
  const t = useT();
  if (!target.namespace || !forwardable.has(target.resource)) return null;
  return (
    <details className="object-forward pad">
      <summary>{t('portforward.startFor', { name: target.name })}</summary>
      <StartPortForward kind={target.resource} namespace={target.namespace} name={target.name} />
    </details>
  );
}

function Tabs({ tabs, tab, onTab }: { tabs: ObjectTab[]; tab: ObjectTab; onTab: (tab: ObjectTab) => void }): ReactNode {
  const t = useT();
  return (
    <TabList
      label={t('drawer.tabs')}
      tabs={tabs}
      tab={tab}
      onTab={onTab}
      text={(name) => t(`objects.tab.${name}` as MessageKey)}
      tabId={(name) => `object-tab-${name}`}
      panelId={() => 'object-panel'}
    />
  );
}

/**
 * One object's page, deep-linkable as `/resources/{kind}/{namespace}/{name}[/{tab}]` (`_` for the
 * namespace of cluster-scoped kinds): Summary, YAML, Describe, Events, Related, and Logs/Terminal
 * for pods; Edit opens the YAML editor (review the server's dry run, then apply).
 */
export function ObjectPage({ target, tab: wanted }: { target: ResourceTarget; tab?: string }): ReactNode {
  const missing = useObject(target).error;
  if (missing instanceof ApiError && missing.status === 404) return <MissingObject target={target} />;
  return <FoundObjectPage target={target} tab={wanted} />;
}

/** An object that is not there (deleted, or a wrong link): says so, with no actions to take on it. */
function MissingObject({ target }: { target: ResourceTarget }): ReactNode {
  const t = useT();
  const kind = kindLabel(target.resource, t);
  return (
    <NotFound
      title={t('notFound.objectTitle', { name: target.name })}
      detail={
        target.namespace ? t('notFound.objectIn', { kind, name: target.name, namespace: target.namespace }) : t('notFound.object', { kind, name: target.name })
      }
      back={{ to: routePath({ page: 'resources', kind: target.resource }), label: t('notFound.toList', { kind }) }}
    />
  );
}

function FoundObjectPage({ target, tab: wanted }: { target: ResourceTarget; tab?: string }): ReactNode {
  const t = useT();
  const role = useApi().current?.role;
  const tabs = tabsFor(target.resource, role);
  const tab = pickTab(tabs, wanted);
  const editor = useObjectEditor(target, role !== 'viewer');
  const onTab = (next: ObjectTab): void => navigate(objectRoutePath(target, next));

  return (
    <div className="page object-page">
      <header className="object-header">
        <div className="object-title">
          <nav aria-label={t('objects.breadcrumb')} className="small">
            <Link to={routePath({ page: 'resources', kind: target.resource })}>{kindLabel(target.resource, t)}</Link>
            {target.namespace ? <span className="muted"> · {target.namespace}</span> : null}
          </nav>
          <h1>{target.name}</h1>
        </div>
        {editor.editButton}
        {role === 'admin' && <DeleteButton target={target} onDeleted={() => navigate(routePath({ page: 'resources', kind: target.resource }))} />}
      </header>
      <ProblemBanner target={target} />
      <ManagedByNote target={target} />
      {role !== 'viewer' && <ForwardFrom target={target} />}
      {role !== 'viewer' && <InvestigateButton target={target} />}
      {editor.notice}
      <AccessScopeProvider namespace={target.namespace} resource={target.resource}>
        {editor.editing ? (
          <Suspense fallback={<p className="muted pad">{t('tab.loading')}</p>}>{editor.panel}</Suspense>
        ) : (
          <>
            <Tabs tabs={tabs} tab={tab} onTab={onTab} />
            <div role="tabpanel" id="object-panel" aria-labelledby={`object-tab-${tab}`} className="tab-panel object-panel">
              <ObjectTabBody tab={tab} target={target} />
            </div>
          </>
        )}
      </AccessScopeProvider>
    </div>
  );
}

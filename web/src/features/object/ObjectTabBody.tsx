import { lazy, Suspense, type ReactNode } from 'react';
import { useT } from '../../i18n';
import { HistoryTab } from '../history/HistoryTab';
import { NodeOperationsTab } from '../nodes/NodeOperationsTab';
import { NodePodsTab } from '../nodes/NodePodsTab';
import { DeploymentHistoryTab, DeploymentScaleTab } from '../resources/DeploymentTabs';
import { LogsTab } from '../resources/LogsTab';
import type { ResourceTarget } from '../../shared/resource-target';
import { TextTab } from '../resources/TextTab';
import { EventsTab } from './EventsTab';
import type { ObjectTab } from './object-tabs';
import { RelatedTab } from './RelatedTab';
import { SummaryTab } from './SummaryTab';

// xterm.js is its own chunk, loaded when the Terminal tab first opens.
const TerminalTab = lazy(() => import('../terminal/TerminalTab').then((module) => ({ default: module.TerminalTab })));

function Lazy({ children }: { children: ReactNode }): ReactNode {
  const t = useT();
  return <Suspense fallback={<p className="muted">{t('tab.loading')}</p>}>{children}</Suspense>;
}

type TabRenderer = (target: ResourceTarget) => ReactNode;

const bodies: Record<ObjectTab, TabRenderer> = {
  summary: (target) => <SummaryTab target={target} />,
  yaml: (target) => <TextTab target={target} suffix="/yaml" />,
  describe: (target) => <TextTab target={target} suffix="/describe" />,
  events: (target) => <EventsTab target={target} />,
  related: (target) => <RelatedTab target={target} />,
  logs: (target) => <LogsTab target={target} />,
  terminal: (target) => (
    <Lazy>
      <TerminalTab target={target} />
    </Lazy>
  ),
  scale: (target) => <DeploymentScaleTab target={target} />,
  history: (target) => <DeploymentHistoryTab target={target} />,
  nodePods: (target) => <NodePodsTab target={target} />,
  nodeOps: (target) => <NodeOperationsTab target={target} />,
  usage: (target) => <HistoryTab target={target} />,
};

/** The body of one tab of an object's page. */
export function ObjectTabBody({ tab, target }: { tab: ObjectTab; target: ResourceTarget }): ReactNode {
  return bodies[tab](target);
}

import type { ReactElement } from 'react';
import type { ViewId } from '../core/key-map.js';
import type { ViewState } from '../core/shell.js';
import { TableView } from './table-view.js';
import { TextView } from './text-view.js';
import { LogsView } from './logs-view.js';
import { HelmHistoryView, HelmView } from './helm-views.js';
import { DrainView } from './drain-view.js';
import { AccessRequestsView } from './access-requests-view.js';
import { ReportsView } from '../reports/reports-view.js';
import { ProblemsView } from './problems-view.js';
import { PortForwardsView } from './port-forwards-view.js';
import { InvestigationsView } from './investigations-view.js';

export interface BodySize {
  height: number;
  width: number;
  active: boolean;
}

/** The key-map view of a stack entry (what `?` lists). */
export function viewIdOf(state: ViewState): ViewId {
  if (state.type === 'table' || state.type === 'text') return state.view;
  // Every other entry's type is its view's id.
  return state.type;
}

/** The views that need nothing but their size. */
const listViews: Record<'access-requests' | 'reports' | 'problems' | 'port-forwards' | 'investigations', (size: BodySize) => ReactElement> = {
  'access-requests': AccessRequestsView,
  reports: ReportsView,
  problems: ProblemsView,
  'port-forwards': PortForwardsView,
  investigations: InvestigationsView,
};

/** Renders one entry of the view stack. */
export function ViewBody(props: { state: ViewState } & BodySize): ReactElement {
  const { state, ...size } = props;
  switch (state.type) {
    case 'table':
      return <TableView view={state.view} resource={state.resource} title={state.title} namespaced={state.namespaced} {...size} />;
    case 'text':
      return <TextView view={state.view} title={state.title} load={state.load} {...size} />;
    case 'logs':
      return <LogsView target={state.target} {...size} />;
    case 'drain':
      return <DrainView node={state.node} id={state.id} height={size.height} active={size.active} />;
    case 'helm':
      return <HelmView {...size} />;
    case 'helm-history':
      return <HelmHistoryView release={state.release} {...size} />;
    default: {
      const View = listViews[state.type];
      return <View {...size} />;
    }
  }
}

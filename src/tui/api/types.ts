/**
 * The terminal UI's names for the wire shapes: the root types that make web-types generates into
 * @pilothouse/wire (packages/wire/types.ts), re-exported, never declared again here (ADR 0036).
 * `Row` is a row of a list (name, namespace, age and the kind's own columns), `ResourceKind` a kind as GET /api/k8s
 * lists it, `ClusterList` GET /api/clusters (the home cluster first).
 */
export type {
  AccessRequest,
  ClusterList,
  ClusterSummary,
  Health,
  HelmRelease,
  Investigation,
  Me,
  PortForward,
  ResourceItem as Row,
  ResourceTypeItem as ResourceKind,
} from '@pilothouse/wire/types';

/** The object a row stands for (the terminal UI's own state, not a wire shape). */
export interface Target {
  resource: string;
  name: string;
  namespace?: string;
}

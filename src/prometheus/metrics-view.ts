/**
 * What one caller may read of a cluster's metrics: everything, or the series of these namespaces (and,
 * with `nodes`, the series that carry no namespace label: nodes, the control plane). Computed from the
 * same access set lists use (src/prometheus/metrics-access.ts); plain data, so the enforcer stays pure.
 */
export type MetricsView = { unrestricted: true } | { unrestricted: false; namespaces: readonly string[] | 'all'; nodes: boolean };

/** The label that names a series' namespace (kube-state-metrics and cAdvisor as scraped by the usual configs). */
export const defaultNamespaceLabel = 'namespace';

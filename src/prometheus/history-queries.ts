import { escapeRegex, quotePromql } from './promql-strings.js';

/** The kinds of object history is drawn for. */
export const historyKinds = ['pod', 'workload', 'node', 'pvc'] as const;
export type HistoryKind = (typeof historyKinds)[number];

/** One named series of a kind: its PromQL template and its unit. */
export interface HistorySeriesDefinition {
  name: string;
  unit: 'cores' | 'bytes' | 'bytes/s' | 'count';
  query: string;
}

/** The series of pods picked by `pods` (`pod=$name` or `pod=~$name_regex`): CPU, memory, network in and out, restarts. */
function podSeries(pods: string): HistorySeriesDefinition[] {
  const containers = `{namespace=$namespace, ${pods}, container!="", container!="POD"}`;
  const selected = `{namespace=$namespace, ${pods}}`;
  return [
    { name: 'cpu', unit: 'cores', query: `sum(rate(container_cpu_usage_seconds_total${containers}[$rate]))` },
    { name: 'memory', unit: 'bytes', query: `sum(container_memory_working_set_bytes${containers})` },
    { name: 'network_in', unit: 'bytes/s', query: `sum(rate(container_network_receive_bytes_total${selected}[$rate]))` },
    { name: 'network_out', unit: 'bytes/s', query: `sum(rate(container_network_transmit_bytes_total${selected}[$rate]))` },
    { name: 'restarts', unit: 'count', query: `sum(kube_pod_container_status_restarts_total${selected})` },
  ];
}

/**
 * The series of each kind, from the cAdvisor and kube-state-metrics names Headlamp's Prometheus plugin uses;
 * `prometheus.queries` overrides any of them. `$namespace` and `$name` are quoted strings, `$name_regex` a quoted
 * regular expression of the object's pods (`<name>-…`), `$rate` the rate window.
 */
export const defaultHistorySeries: Readonly<Record<HistoryKind, readonly HistorySeriesDefinition[]>> = {
  pod: podSeries('pod=$name'),
  workload: podSeries('pod=~$name_regex'),
  node: [
    { name: 'cpu', unit: 'cores', query: 'sum(rate(container_cpu_usage_seconds_total{node=$name, container!="", container!="POD"}[$rate]))' },
    { name: 'memory', unit: 'bytes', query: 'sum(container_memory_working_set_bytes{node=$name, container!="", container!="POD"})' },
    { name: 'pods', unit: 'count', query: 'count(kube_pod_info{node=$name})' },
  ],
  pvc: [
    { name: 'used', unit: 'bytes', query: 'sum(kubelet_volume_stats_used_bytes{namespace=$namespace, persistentvolumeclaim=$name})' },
    { name: 'capacity', unit: 'bytes', query: 'sum(kubelet_volume_stats_capacity_bytes{namespace=$namespace, persistentvolumeclaim=$name})' },
  ],
};

/** The series of a kind with the configured overrides (`<kind>.<series>` → query). */
export function historySeriesOf(kind: HistoryKind, overrides: Readonly<Record<string, string>>): HistorySeriesDefinition[] {
  return defaultHistorySeries[kind].map((series) => ({ ...series, query: overrides[`${kind}.${series.name}`] ?? series.query }));
}

/** The template with the object filled in (names are Kubernetes names; quoted and escaped all the same). */
export function renderHistoryQuery(template: string, target: { namespace: string; name: string; rateSeconds: number }): string {
  return template
    .replaceAll('$namespace', quotePromql(target.namespace))
    .replaceAll('$name_regex', quotePromql(`${escapeRegex(target.name)}-.+`))
    .replaceAll('$name', quotePromql(target.name))
    .replaceAll('$rate', `${target.rateSeconds}s`);
}

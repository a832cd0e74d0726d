import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { enforceQuery } from './enforce-query.js';
import { hostileQueries } from './hostile-queries.js';
import type { MetricsView } from './metrics-view.js';
import { unquotePromql } from './promql-strings.js';

const teams: MetricsView = { unrestricted: false, namespaces: ['team-b', 'team-a'], nodes: false };
const fill = (query: string): string => query.replaceAll('{{own}}', 'team-a').replaceAll('{{other}}', 'team-x');

/** Each hostile query and what a caller limited to team-a and team-b runs instead (`§` = `team-a|team-b`), or the refusal. */
const rewritten: readonly (readonly [string, string])[] = [
  ['container_cpu_usage_seconds_total', 'container_cpu_usage_seconds_total{namespace=~"§"}'],
  ['container_cpu_usage_seconds_total{}', 'container_cpu_usage_seconds_total{namespace=~"§",}'],
  ['container_cpu_usage_seconds_total{namespace!="{{own}}"}', 'container_cpu_usage_seconds_total{namespace=~"§",namespace!="team-a"}'],
  ['container_cpu_usage_seconds_total{namespace=~".+"}', 'container_cpu_usage_seconds_total{namespace=~"§",namespace=~".+"}'],
  ['container_cpu_usage_seconds_total{namespace=~".*"}', 'container_cpu_usage_seconds_total{namespace=~"§",namespace=~".*"}'],
  ['container_cpu_usage_seconds_total{namespace=~"{{other}}|{{own}}"}', 'container_cpu_usage_seconds_total{namespace=~"§",namespace=~"team-x|team-a"}'],
  ['container_cpu_usage_seconds_total{namespace!~"{{own}}"}', 'container_cpu_usage_seconds_total{namespace=~"§",namespace!~"team-a"}'],
  ['container_cpu_usage_seconds_total{namespace=""}', 'FORBIDDEN'],
  ['container_cpu_usage_seconds_total{pod=~".+",}', 'container_cpu_usage_seconds_total{namespace=~"§",pod=~".+",}'],
  ['{__name__="container_cpu_usage_seconds_total"}', '{namespace=~"§",__name__="container_cpu_usage_seconds_total"}'],
  ['{__name__=~".+"}', '{namespace=~"§",__name__=~".+"}'],
  ['{__name__=~"container_.*", namespace=~".*"}', '{namespace=~"§",__name__=~"container_.*", namespace=~".*"}'],
  ['{namespace=~".+"}', '{namespace=~"§",namespace=~".+"}'],
  ['rate(container_cpu_usage_seconds_total[5m])', 'rate(container_cpu_usage_seconds_total{namespace=~"§"}[5m])'],
  ['rate(container_cpu_usage_seconds_total{namespace=~".+"}[5m])', 'rate(container_cpu_usage_seconds_total{namespace=~"§",namespace=~".+"}[5m])'],
  ['sum by (namespace) (container_memory_working_set_bytes)', 'sum by (namespace) (container_memory_working_set_bytes{namespace=~"§"})'],
  ['count by (namespace) (kube_pod_info)', 'count by (namespace) (kube_pod_info{namespace=~"§"})'],
  ['count(kube_pod_info) by (namespace, pod)', 'count(kube_pod_info{namespace=~"§"}) by (namespace, pod)'],
  ['kube_pod_info or kube_node_info', 'kube_pod_info{namespace=~"§"} or kube_node_info{namespace=~"§"}'],
  ['kube_pod_info{namespace="{{own}}"} or on() kube_pod_info', 'kube_pod_info{namespace=~"§",namespace="team-a"} or on() kube_pod_info{namespace=~"§"}'],
  ['kube_pod_info unless kube_pod_info{namespace="{{own}}"}', 'kube_pod_info{namespace=~"§"} unless kube_pod_info{namespace=~"§",namespace="team-a"}'],
  ['kube_pod_info and on(pod) kube_pod_info', 'kube_pod_info{namespace=~"§"} and on(pod) kube_pod_info{namespace=~"§"}'],
  ['kube_pod_info * on(namespace) group_left() kube_pod_info', 'kube_pod_info{namespace=~"§"} * on(namespace) group_left() kube_pod_info{namespace=~"§"}'],
  [
    'label_replace(kube_pod_info, "namespace", "{{own}}", "namespace", ".*")',
    'label_replace(kube_pod_info{namespace=~"§"}, "namespace", "team-a", "namespace", ".*")',
  ],
  ['label_replace(kube_node_info, "namespace", "{{own}}", "", "")', 'label_replace(kube_node_info{namespace=~"§"}, "namespace", "team-a", "", "")'],
  ['label_join(kube_pod_info, "namespace", "", "pod")', 'label_join(kube_pod_info{namespace=~"§"}, "namespace", "", "pod")'],
  ['absent(kube_pod_info{namespace="nothing-here"})', 'FORBIDDEN'],
  ['absent_over_time(kube_pod_info[1h])', 'absent_over_time(kube_pod_info{namespace=~"§"}[1h])'],
  ['max_over_time(kube_pod_info[1h:1m])', 'max_over_time(kube_pod_info{namespace=~"§"}[1h:1m])'],
  ['sum(rate(container_cpu_usage_seconds_total[5m]))[30m:1m]', 'sum(rate(container_cpu_usage_seconds_total{namespace=~"§"}[5m]))[30m:1m]'],
  ['max_over_time(rate(container_cpu_usage_seconds_total[5m])[1h:5m])', 'max_over_time(rate(container_cpu_usage_seconds_total{namespace=~"§"}[5m])[1h:5m])'],
  ['kube_pod_info @ 0', 'kube_pod_info{namespace=~"§"} @ 0'],
  ['kube_pod_info @ start()', 'kube_pod_info{namespace=~"§"} @ start()'],
  ['kube_pod_info offset 5m', 'kube_pod_info{namespace=~"§"} offset 5m'],
  ['kube_pod_info offset -5m', 'kube_pod_info{namespace=~"§"} offset -5m'],
  ['rate(container_cpu_usage_seconds_total[5m] offset 1h @ end())', 'rate(container_cpu_usage_seconds_total{namespace=~"§"}[5m] offset 1h @ end())'],
  ['topk(100, container_memory_working_set_bytes)', 'topk(100, container_memory_working_set_bytes{namespace=~"§"})'],
  ['sort_desc(sum without (pod) (container_memory_working_set_bytes))', 'sort_desc(sum without (pod) (container_memory_working_set_bytes{namespace=~"§"}))'],
  [
    'histogram_quantile(0.9, sum by (le) (rate(apiserver_request_duration_seconds_bucket[5m])))',
    'histogram_quantile(0.9, sum by (le) (rate(apiserver_request_duration_seconds_bucket{namespace=~"§"}[5m])))',
  ],
  ['count_values("namespace", kube_pod_info)', 'count_values("namespace", kube_pod_info{namespace=~"§"})'],
  ['vector(1) + on() group_left() count(kube_pod_info)', 'vector(1) + on() group_left() count(kube_pod_info{namespace=~"§"})'],
  ['scalar(count(kube_pod_info)) * vector(1)', 'scalar(count(kube_pod_info{namespace=~"§"})) * vector(1)'],
  ['(kube_pod_info)', '(kube_pod_info{namespace=~"§"})'],
  ['-kube_pod_info', '-kube_pod_info{namespace=~"§"}'],
  ['kube_node_info', 'kube_node_info{namespace=~"§"}'],
  ['node_cpu_seconds_total', 'node_cpu_seconds_total{namespace=~"§"}'],
  ['up', 'up{namespace=~"§"}'],
  ['{job=~".+"} # a comment\n', '{namespace=~"§",job=~".+"} # a comment\n'],
  ['kube_pod_info{pod=~".+" # a comment\n}', 'kube_pod_info{namespace=~"§",pod=~".+" # a comment\n}'],
  ["kube_pod_info{namespace=~'.+'}", 'kube_pod_info{namespace=~"§",namespace=~\'.+\'}'],
  ['kube_pod_info{namespace=~`.+`}', 'kube_pod_info{namespace=~"§",namespace=~`.+`}'],
  ['quantile_over_time(0.5, container_memory_working_set_bytes[10m])', 'quantile_over_time(0.5, container_memory_working_set_bytes{namespace=~"§"}[10m])'],
  ['timestamp(kube_pod_info)', 'timestamp(kube_pod_info{namespace=~"§"})'],
  ['changes(kube_pod_info[1h]) > 0', 'changes(kube_pod_info{namespace=~"§"}[1h]) > 0'],
  ['group(kube_pod_info) by (namespace)', 'group(kube_pod_info{namespace=~"§"}) by (namespace)'],
];

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof AppError ? error.code : 'not an AppError';
  }
}

describe('enforceQuery, for a caller limited to the namespaces team-a and team-b', () => {
  it('covers every query of the hostile corpus (at least 40)', () => {
    expect(hostileQueries.length).toBeGreaterThanOrEqual(40);
    expect(rewritten.map(([query]) => query)).toEqual(hostileQueries);
  });

  it.each(rewritten)('%s', (query, expected) => {
    if (expected === 'FORBIDDEN') {
      expect(codeOf(() => enforceQuery(fill(query), teams))).toBe('FORBIDDEN');
      return;
    }
    expect(enforceQuery(fill(query), teams)).toBe(expected.replaceAll('§', 'team-a|team-b'));
  });

  it('refuses a selector that names a namespace outside the view, with the namespace in the details', () => {
    let refusal: AppError | undefined;
    try {
      enforceQuery('sum(rate(container_cpu_usage_seconds_total{namespace="kube-system"}[5m]))', teams);
    } catch (error) {
      refusal = error as AppError;
    }
    expect(refusal?.code).toBe('FORBIDDEN');
    expect(refusal?.details).toMatchObject({ reason: 'namespace_not_visible', namespace: 'kube-system' });
    expect(enforceQuery("up{'namespace'='team-b'}", teams)).toBe(`up{namespace=~"team-a|team-b",'namespace'='team-b'}`);
  });
});

describe('enforceQuery, other views', () => {
  it('lets series without a namespace through for callers who may list nodes', () => {
    const withNodes: MetricsView = { unrestricted: false, namespaces: ['team-a'], nodes: true };
    expect(enforceQuery('node_cpu_seconds_total', withNodes)).toBe('node_cpu_seconds_total{namespace=~"team-a|"}');
    expect(enforceQuery('up{namespace=""}', withNodes)).toBe('up{namespace=~"team-a|",namespace=""}');
    expect(enforceQuery('up', { unrestricted: false, namespaces: [], nodes: true })).toBe('up{namespace=""}');
  });

  it('keeps every namespace but no node series for callers who may list pods everywhere but not nodes', () => {
    expect(enforceQuery('up or node_load1', { unrestricted: false, namespaces: 'all', nodes: false })).toBe('up{namespace!=""} or node_load1{namespace!=""}');
  });

  it('refuses a caller who may read no namespace and no node', () => {
    expect(codeOf(() => enforceQuery('up', { unrestricted: false, namespaces: [], nodes: false }))).toBe('FORBIDDEN');
  });

  it('leaves an unrestricted caller their query as written, and uses the configured label', () => {
    expect(enforceQuery('sum by (namespace) (up)', { unrestricted: true })).toBe('sum by (namespace) (up)');
    expect(enforceQuery('up', teams, 'exported_namespace')).toBe('up{exported_namespace=~"team-a|team-b"}');
  });

  it('escapes namespaces that hold regular expression characters', () => {
    expect(enforceQuery('up', { unrestricted: false, namespaces: ['a.b'], nodes: false })).toBe('up{namespace=~"a\\\\.b"}');
  });
});

describe('queries that cannot be parsed', () => {
  it.each([
    'up{',
    'up{namespace="team-a"',
    'up{namespace="team-a}',
    'sum(up',
    'rate(up[5m)',
    'up{namespace=~"team-a"} or',
    '',
    '   ',
    'up{namespace="a\\q"}',
    'up[5m:1m',
  ])('refuses %j for everyone, admins too (VALIDATION_ERROR)', (query) => {
    expect(codeOf(() => enforceQuery(query, teams))).toBe('VALIDATION_ERROR');
    expect(codeOf(() => enforceQuery(query, { unrestricted: true }))).toBe('VALIDATION_ERROR');
  });

  it('refuses a query past the length limit', () => {
    expect(codeOf(() => enforceQuery(`up${' '.repeat(30_000)}`, { unrestricted: true }))).toBe('VALIDATION_ERROR');
  });
});

describe('unquotePromql', () => {
  it('reads the three quote styles and Go escapes, and refuses broken literals', () => {
    expect(unquotePromql('"a\\"b\\n"')).toBe('a"b\n');
    expect(unquotePromql("'\\x41\\u00e9\\101'")).toBe('AéA');
    expect(unquotePromql('`raw\\n`')).toBe('raw\\n');
    expect(unquotePromql('"open')).toBeUndefined();
    expect(unquotePromql('"bad\\q"')).toBeUndefined();
  });
});

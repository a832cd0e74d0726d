/** The parts of an object the Summary and Related tabs read. */
export interface ObjectShape {
  kind?: string;
  apiVersion?: string;
  metadata?: {
    name?: string;
    namespace?: string;
    uid?: string;
    creationTimestamp?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: { kind: string; name: string; apiVersion?: string; controller?: boolean }[];
  };
  spec?: { selector?: unknown; nodeName?: string; [key: string]: unknown };
  status?: { phase?: string; conditions?: { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string }[] };
}

/** A link to another object's page: its resource (as the list URL names it), namespace and name. */
export interface RelatedLink {
  resource: string;
  namespace?: string;
  name: string;
  relation: 'owner' | 'pods' | 'replicasets' | 'node' | 'services' | 'ingresses';
}

/** `ReplicaSet` → `replicasets` (the API resolves kinds by their plural names, like kubectl). */
export function resourceOfKind(kind: string): string {
  const lower = kind.toLowerCase();
  if (lower.endsWith('s')) return `${lower}es`;
  if (lower.endsWith('y')) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}

/** `{app: web, tier: front}` → `app=web,tier=front`. */
function labelsSelector(labels: Record<string, string>): string {
  return Object.entries(labels)
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
}

/** A workload's `spec.selector` (`matchLabels`, `matchExpressions` In/NotIn/Exists) or a service's plain map as a label selector. */
export function selectorOf(object: ObjectShape): string | undefined {
  const selector = object.spec?.selector as
    { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values?: string[] }[] } | Record<string, string> | undefined;
  if (!selector || typeof selector !== 'object') return undefined;
  if (object.kind === 'Service') return Object.keys(selector).length > 0 ? labelsSelector(selector as Record<string, string>) : undefined;
  const { matchLabels = {}, matchExpressions = [] } = selector as {
    matchLabels?: Record<string, string>;
    matchExpressions?: { key: string; operator: string; values?: string[] }[];
  };
  const parts = [labelsSelector(matchLabels), ...matchExpressions.map(expressionText)].filter(Boolean);
  return parts.length > 0 ? parts.join(',') : undefined;
}

function expressionText(expression: { key: string; operator: string; values?: string[] }): string {
  const values = (expression.values ?? []).join(',');
  if (expression.operator === 'In') return `${expression.key} in (${values})`;
  if (expression.operator === 'NotIn') return `${expression.key} notin (${values})`;
  if (expression.operator === 'Exists') return expression.key;
  if (expression.operator === 'DoesNotExist') return `!${expression.key}`;
  return '';
}

/** The owners (ownerReferences); a pod's node is not an owner (see nodeLinks). */
export function ownerLinks(object: ObjectShape): RelatedLink[] {
  const namespace = object.metadata?.namespace;
  return (object.metadata?.ownerReferences ?? []).map((owner): RelatedLink => ({
    resource: resourceOfKind(owner.kind),
    namespace,
    name: owner.name,
    relation: 'owner',
  }));
}

/** The node a pod runs on ("Runs on"). */
export function nodeLinks(object: ObjectShape): RelatedLink[] {
  return object.kind === 'Pod' && object.spec?.nodeName ? [{ resource: 'nodes', name: object.spec.nodeName, relation: 'node' }] : [];
}

/** The workload kinds whose pods services route to (their pod template's labels). */
export const routedKinds: ReadonlySet<string> = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet']);

/** The labels of a workload's pod template. */
export function templateLabels(object: ObjectShape): Record<string, string> {
  const template = object.spec?.template as { metadata?: { labels?: Record<string, string> } } | undefined;
  return template?.metadata?.labels ?? {};
}

/** A service list row's selector column (`app=web,tier=front`, `<none>`) as a map; undefined when it selects nothing. */
export function parseSelectorColumn(column: unknown): Record<string, string> | undefined {
  if (typeof column !== 'string' || !column.includes('=')) return undefined;
  const pairs = column.split(',').map((pair) => pair.trim().split('='));
  if (pairs.some((pair) => pair.length !== 2 || !pair[0])) return undefined;
  return Object.fromEntries(pairs as [string, string][]);
}

/** True when every label of a service's selector is on the pod template (the service routes to the workload's pods). */
export function selects(selector: Record<string, string> | undefined, labels: Record<string, string>): boolean {
  if (!selector) return false;
  return Object.entries(selector).every(([key, value]) => labels[key] === value);
}

/** The services an Ingress sends traffic to: its default backend and every path's backend. */
export function ingressServices(ingress: ObjectShape): string[] {
  const spec = (ingress.spec ?? {}) as {
    defaultBackend?: { service?: { name?: string } };
    rules?: { http?: { paths?: { backend?: { service?: { name?: string } } }[] } }[];
  };
  const names = [
    spec.defaultBackend?.service?.name,
    ...(spec.rules ?? []).flatMap((rule) => (rule.http?.paths ?? []).map((path) => path.backend?.service?.name)),
  ];
  return [...new Set(names.filter((name): name is string => !!name))];
}

/** The kinds whose children are found by the object's selector: pods for every selector, replica sets for deployments. */
export function childKinds(kind: string | undefined): ('pods' | 'replicasets')[] {
  if (kind === 'Deployment') return ['replicasets', 'pods'];
  if (['ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'Service', 'ReplicationController'].includes(kind ?? '')) return ['pods'];
  return [];
}

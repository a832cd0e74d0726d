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
  relation: 'owner' | 'pods' | 'replicasets' | 'node';
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

/** The owners (ownerReferences) and, for pods, the node they run on. */
export function ownerLinks(object: ObjectShape): RelatedLink[] {
  const namespace = object.metadata?.namespace;
  const owners = (object.metadata?.ownerReferences ?? []).map((owner): RelatedLink => ({
    resource: resourceOfKind(owner.kind),
    namespace,
    name: owner.name,
    relation: 'owner',
  }));
  const node = object.kind === 'Pod' && object.spec?.nodeName ? [{ resource: 'nodes', name: object.spec.nodeName, relation: 'node' as const }] : [];
  return [...owners, ...node];
}

/** The kinds whose children are found by the object's selector: pods for every selector, replica sets for deployments. */
export function childKinds(kind: string | undefined): ('pods' | 'replicasets')[] {
  if (kind === 'Deployment') return ['replicasets', 'pods'];
  if (['ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'Service', 'ReplicationController'].includes(kind ?? '')) return ['pods'];
  return [];
}

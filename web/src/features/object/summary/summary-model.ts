// What the per-kind summaries read from an object's JSON: pure functions over the API's (masked) object.

/** One container's state as kubectl describe words it: `Running`, `Waiting (CrashLoopBackOff)`, `Terminated (Error, exit 1)`. */
export interface ContainerRow {
  name: string;
  image: string;
  state: string;
  reason: string;
  ready: boolean | undefined;
  restarts: number;
  lastState: string;
  ports: string;
  init: boolean;
}

type Json = Record<string, unknown>;

const record = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.map(record) : []);
const text = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** A container state (`{running: {...}}`, `{waiting: {reason}}`, `{terminated: {reason, exitCode}}`) as words and its reason. */
export function stateText(state: unknown): { state: string; reason: string } {
  const value = record(state);
  if (value.running) return { state: 'Running', reason: '' };
  const waiting = record(value.waiting);
  if (value.waiting) return { state: 'Waiting', reason: text(waiting.reason) };
  const terminated = record(value.terminated);
  if (value.terminated) {
    const reason = text(terminated.reason);
    const exit = text(terminated.exitCode);
    return { state: 'Terminated', reason: [reason, exit !== '' ? `exit code ${exit}` : ''].filter(Boolean).join(', ') };
  }
  return { state: '', reason: '' };
}

function lastStateText(state: unknown): string {
  const { state: word, reason } = stateText(state);
  if (!word) return '';
  const finished = text(record(record(state).terminated).finishedAt);
  return [word, reason ? `(${reason})` : '', finished ? `at ${finished}` : ''].filter(Boolean).join(' ');
}

function portsText(ports: unknown): string {
  return list(ports)
    .map((port) => `${text(port.name) ? `${text(port.name)}:` : ''}${text(port.containerPort)}/${text(port.protocol) || 'TCP'}`)
    .join(', ');
}

/** The pod's containers (init containers first), each with its spec and its status joined by name. */
export function containerRows(pod: Json): ContainerRow[] {
  const spec = record(pod.spec);
  const status = record(pod.status);
  const rows = (containers: unknown, statuses: unknown, init: boolean): ContainerRow[] => {
    const byName = new Map(list(statuses).map((entry) => [text(entry.name), entry]));
    return list(containers).map((container) => {
      const current = byName.get(text(container.name)) ?? {};
      const { state, reason } = stateText(current.state);
      return {
        name: text(container.name),
        image: text(container.image),
        state,
        reason,
        ready: typeof current.ready === 'boolean' ? current.ready : undefined,
        restarts: Number(current.restartCount ?? 0),
        lastState: lastStateText(current.lastState),
        ports: portsText(container.ports),
        init,
      };
    });
  };
  return [...rows(spec.initContainers, status.initContainerStatuses, true), ...rows(spec.containers, status.containerStatuses, false)];
}

/**
 * What a pod is doing, the way `kubectl get pods` says it: the first waiting or failed container's reason
 * (`CrashLoopBackOff`, `ImagePullBackOff`, `OOMKilled`) over the phase, which stays `Running` while a container crash-loops.
 */
export function podStatusText(pod: Json): string {
  const status = record(pod.status);
  if (record(pod.metadata).deletionTimestamp) return 'Terminating';
  const problem = containerRows(pod).find((row) => (row.state === 'Waiting' || row.state === 'Terminated') && row.reason && !/^Completed/.test(row.reason));
  if (problem) return problem.reason.split(',')[0] ?? problem.reason;
  return text(status.reason) || text(status.phase);
}

/** `{app: web}` → `app=web`; a label selector's matchLabels and matchExpressions as kubectl prints them. */
export function selectorText(selector: unknown): string {
  const value = record(selector);
  const labels = value.matchLabels || value.matchExpressions ? record(value.matchLabels) : value;
  const parts = Object.entries(labels).map(([key, entry]) => `${key}=${text(entry)}`);
  for (const expression of list(value.matchExpressions)) {
    const values = Array.isArray(expression.values) ? expression.values.map(text).join(',') : '';
    parts.push(`${text(expression.key)} ${text(expression.operator)}${values ? ` (${values})` : ''}`);
  }
  return parts.join(', ');
}

/** The images of a pod template's (or pod spec's) containers, init containers included. */
export function imagesOf(podSpec: unknown): string[] {
  const spec = record(podSpec);
  return [...list(spec.initContainers), ...list(spec.containers)].map((container) => text(container.image)).filter(Boolean);
}

/** A deployment's `RollingUpdate (max unavailable 25%, max surge 25%)`, a StatefulSet's or DaemonSet's update strategy. */
export function strategyText(strategy: unknown): string {
  const value = record(strategy);
  const type = text(value.type);
  const rolling = record(value.rollingUpdate);
  const details = [
    text(rolling.maxUnavailable) ? `max unavailable ${text(rolling.maxUnavailable)}` : '',
    text(rolling.maxSurge) ? `max surge ${text(rolling.maxSurge)}` : '',
    text(rolling.partition) ? `partition ${text(rolling.partition)}` : '',
  ].filter(Boolean);
  return details.length > 0 ? `${type} (${details.join(', ')})` : type;
}

/** The annotation kubectl apply writes: the whole last applied manifest, shown collapsed. */
export const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';

export { record, list, text };

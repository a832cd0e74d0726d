import type { ResourceType } from '../kube/discovery.js';
import type { Principal } from '../rbac/principal.js';
import type { PolicyEngine } from '../rbac/policy-engine.js';
import { resourceRequestAttributes } from '../rbac/resource-request.js';

/** What a section left out says in its place. */
export const hiddenNote = '<not shown: a resource-level role denies them>';

const indentOf = (line: string): number => line.length - line.trimStart().length;

/** The top-level section whose first line matches `header`: that line and the indented lines after it ([start, end)). */
function sectionAt(lines: readonly string[], header: RegExp): { start: number; end: number } | undefined {
  const start = lines.findIndex((line) => indentOf(line) === 0 && header.test(line));
  if (start < 0) return undefined;
  let end = start + 1;
  while (end < lines.length && (lines[end] ?? '').trim() !== '' && indentOf(lines[end] ?? '') > 0) end += 1;
  return { start, end };
}

/** `kubectl describe` text with a top-level section replaced by one line `<title>:  <not shown...>`. */
export function hideSection(text: string, header: RegExp, title: string): string {
  const lines = text.split('\n');
  const section = sectionAt(lines, header);
  if (!section) return text;
  lines.splice(section.start, section.end - section.start, `${title}:  ${hiddenNote}`);
  return lines.join('\n');
}

/**
 * A node's describe text with the rows of its `Non-terminated Pods` table left out whose namespace
 * the caller may not see (the count follows); `dropped` says how many were left out.
 */
export function withoutPodRows(text: string, visible: (namespace: string) => boolean): { text: string; dropped: number } {
  const lines = text.split('\n');
  const section = sectionAt(lines, /^Non-terminated Pods:/);
  if (!section) return { text, dropped: 0 };
  const separator = lines.findIndex((line, index) => index > section.start && index < section.end && line.trim().startsWith('---------'));
  if (separator < 0) return { text, dropped: 0 };
  const rows = lines.slice(separator + 1, section.end);
  const kept = rows.filter((row) => visible(row.trim().split(/\s+/)[0] ?? ''));
  if (kept.length === rows.length) return { text, dropped: 0 };
  const header = (lines[section.start] ?? '').replace(/\(\d+ in total\)/, `(${kept.length} in total)`);
  const shown = [...lines.slice(0, section.start), header, ...lines.slice(section.start + 1, separator + 1), ...kept, ...lines.slice(section.end)];
  return { text: shown.join('\n'), dropped: rows.length - kept.length };
}

/** The policy questions a describe text raises: may the caller list this core kind in this namespace ('' = across all)? */
class Viewer {
  constructor(
    private readonly policy: PolicyEngine,
    private readonly principal: Principal | undefined,
  ) {}

  /** Namespaces whose objects of `resource` the caller may not see, across all namespaces (`all`: none may be seen). */
  hidden(resource: string): Promise<{ all: boolean; namespaces: ReadonlySet<string> }> {
    return this.policy.hiddenNamespaces(this.principal, { apiGroup: '', resource }, 'list');
  }

  async mayList(resource: string, namespace: string): Promise<boolean> {
    if (namespace === '') {
      const hidden = await this.hidden(resource);
      return !hidden.all && hidden.namespaces.size === 0;
    }
    const attributes = resourceRequestAttributes({ verb: 'list', apiGroup: '', resource, namespace, name: '' });
    return (await this.policy.authorize(this.principal, attributes, 'direct')).allowed;
  }
}

/** The object a describe text is about. */
export interface DescribedObject {
  type: ResourceType;
  name: string;
  /** undefined for cluster-scoped kinds. */
  namespace: string | undefined;
}

const isCore = (type: ResourceType, kind: string): boolean => type.group === '' && type.kind === kind;

/** A node's pods: rows of hidden namespaces left out, and the totals over all pods with them. */
async function nodePods(viewer: Viewer, text: string): Promise<string> {
  const hidden = await viewer.hidden('pods');
  const { text: shown, dropped } = withoutPodRows(text, (namespace) => !hidden.all && !hidden.namespaces.has(namespace));
  // The allocated totals sum the requests of every pod, the hidden ones too.
  return dropped > 0 ? hideSection(shown, /^Allocated resources:/, 'Allocated resources') : shown;
}

/** A namespace's quotas and limit ranges, unless a role denies listing them there. */
async function namespaceLimits(viewer: Viewer, name: string, text: string): Promise<string> {
  let shown = text;
  if (!(await viewer.mayList('resourcequotas', name))) shown = hideSection(shown, /^(Resource Quotas\s*$|No resource quota\.)/, 'Resource Quotas');
  if (!(await viewer.mayList('limitranges', name))) shown = hideSection(shown, /^(Resource Limits\s*$|No LimitRange resource\.)/, 'Resource Limits');
  return shown;
}

/**
 * `kubectl describe` text as the caller may see it. kubectl joins several requests into one text
 * (a node's pods in every namespace, a namespace's quotas and limit ranges, the object's events);
 * what the one policy would refuse the caller as a request of its own is left out: pod rows of
 * hidden namespaces (and the node's allocated totals, which count them), quotas and limit ranges
 * a role denies, events the caller may not list where kubectl looked for them (the object's
 * namespace, or every namespace for cluster-scoped objects).
 */
export async function visibleDescribe(policy: PolicyEngine, principal: Principal | undefined, object: DescribedObject, text: string): Promise<string> {
  const viewer = new Viewer(policy, principal);
  let shown = text;
  if (!(await viewer.mayList('events', object.namespace ?? ''))) shown = hideSection(shown, /^Events:/, 'Events');
  if (isCore(object.type, 'Node')) shown = await nodePods(viewer, shown);
  if (isCore(object.type, 'Namespace')) shown = await namespaceLimits(viewer, object.name, shown);
  return shown;
}

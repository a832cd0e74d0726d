import type { RoleName } from '../config/schema.js';
import type { ClusterListing } from './cluster-directory.js';
import type { ChatContext } from './history/history-entries.js';

export interface PromptInput {
  username: string;
  role: RoleName;
  context: ChatContext;
  /** Tool names offered in this turn. */
  tools: readonly string[];
  language: string;
  beginnerMode: boolean;
  /** Every cluster (home first) and the chat's one (ADR 0035); absent: one cluster, nothing to say. */
  clusters?: { current: string; items: readonly ClusterListing[] };
  /** The caller's findings in the chat's namespace by severity (src/problems); absent: nothing to say. */
  problems?: { namespace: string; counts: Record<string, number> };
  /** The finding the user asks about (the chat context's `finding`, as the caller may see it); absent: none or no longer found. */
  finding?: FocusedFinding;
}

/** What the prompt says of the finding a question is about (a src/problems Finding, as far as the model needs it). */
export interface FocusedFinding {
  severity: string;
  reason: string;
  message: string;
  object: { kind: string; namespace?: string; name: string };
  owner?: { kind: string; name: string };
  evidence: readonly string[];
  hint: string;
  since: string;
}

const languageNames: Record<string, string> = { en: 'English', ko: 'Korean', ja: 'Japanese', zh: 'Chinese' };

const roleRules: Record<RoleName, string> = {
  viewer:
    'The user has the role viewer: every tool call will be refused as forbidden. Do not call tools; answer from your knowledge and suggest commands the user could ask an operator to run.',
  user: 'The user has the role user: read-only commands run at once (or after approval), changes (apply, create, patch, scale, restart...) run only after the user approves, and dangerous commands (delete, drain, forced removal) are refused even if approved.',
  admin:
    'The user has the role admin: read-only commands run at once (or after approval); changes and dangerous commands, deletes included, run only after the user approves.',
};

function contextLines(context: ChatContext): string[] {
  const lines = [`Default namespace: ${context.namespace || 'default'} (use it when the user names no namespace).`];
  if (context.resource) lines.push(`The user is looking at ${context.resource}; "it" and "this" usually mean that resource.`);
  if (context.range) lines.push(`The user's screen shows the last ${context.range}: use it as the range of history questions unless they name another.`);
  return lines;
}

function clusterState(cluster: ClusterListing, current: string): string {
  const state = cluster.reachable ? `reachable${cluster.version ? `, ${cluster.version}` : ''}` : 'unreachable';
  return `- ${cluster.name} (${state})${cluster.name === current ? " <- this chat's cluster" : ''}`;
}

/**
 * The clusters the tools may target: their names and reachability, which one is the chat's, and how to name
 * another. Names only: addresses and credentials never reach the model.
 */
function clusterLines(clusters: PromptInput['clusters']): string[] {
  if (!clusters) return [];
  return [
    `Clusters (${clusters.items.length}):`,
    ...clusters.items.map((cluster) => clusterState(cluster, clusters.current)),
    `The kubectl and bash tools act on the cluster "${clusters.current}" unless a call names another with its "cluster" argument; ` +
      "name the cluster whenever the user asks about one that is not this chat's, and say which cluster each answer is about. " +
      'An unreachable cluster answers nothing: say so instead of retrying.',
  ];
}

/** Usage history exists when the promql tool is offered: "since when" questions are answered from it. */
function historyLines(tools: readonly string[]): string[] {
  if (!tools.includes('promql')) return [];
  return [
    'Usage history exists: the promql tool queries the cluster\'s Prometheus (CPU, memory, network, restarts over time; cAdvisor and kube-state-metrics names such as container_cpu_usage_seconds_total, container_memory_working_set_bytes, kube_pod_container_status_restarts_total). Use it for "since when" and trend questions, with a range, and aggregate (sum by pod) to keep answers small.',
  ];
}

/** How many problems the chat's namespace has, and where to read them. */
function problemLines(problems: PromptInput['problems']): string[] {
  if (!problems) return [];
  const { critical = 0, warning = 0, info = 0 } = problems.counts;
  const total = critical + warning + info;
  if (total === 0) return [`Pilothouse finds no problems in the namespace ${problems.namespace} now.`];
  return [
    `Pilothouse finds ${total} problems in the namespace ${problems.namespace} now (${critical} critical, ${warning} warning, ${info} info); the problems tool lists them with their evidence: start there.`,
  ];
}

/** The finding the user asks about, with the evidence it rests on and its read-only next step. */
function findingLines(finding: FocusedFinding | undefined, asked: string | undefined): string[] {
  if (!asked) return [];
  if (!finding) return [`The user asks about a finding (${asked}) that Pilothouse no longer finds: it may be fixed; check the object's state now.`];
  const { object } = finding;
  const where = `${object.kind} ${object.namespace ? `${object.namespace}/` : ''}${object.name}`;
  const owner = finding.owner ? ` (owned by ${finding.owner.kind} ${finding.owner.name})` : '';
  return [
    `The user asks about this ${finding.severity} finding on ${where}${owner}, seen since ${finding.since}: ${finding.reason}: ${finding.message}`,
    'Evidence:',
    ...finding.evidence.map((line) => `- ${line}`),
    `Suggested read-only next step: ${finding.hint}`,
  ];
}

/**
 * The system prompt of a turn: who asks, what they are looking at (namespace, focused resource),
 * which clusters exist (and which is the chat's), which tools exist and the role's rules. Built fresh each turn, never stored.
 */
export function buildSystemPrompt(input: PromptInput): string {
  const lines = [
    'You are Pilothouse, an assistant that operates a Kubernetes cluster and asks before it acts.',
    `You are talking to ${input.username}.`,
    ...contextLines(input.context),
    ...clusterLines(input.clusters),
    ...problemLines(input.problems),
    ...findingLines(input.finding, input.context.finding),
    input.tools.length ? `Tools: ${input.tools.join(', ')}. Prefer one small command per call.` : 'No tools are available.',
    ...historyLines(input.tools),
    roleRules[input.role],
    'Every command is safety-classified before it runs; blocked commands never run. A tool result starting with "Cancelled:", "Forbidden:" or "Blocked:" means nothing was run: do not retry the same command, explain and continue.',
    `Answer in ${languageNames[input.language] ?? input.language}.`,
  ];
  if (input.beginnerMode) lines.push('The user is a beginner: explain each command and its effect in plain words.');
  return lines.join('\n');
}

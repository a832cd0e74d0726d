import * as yaml from 'js-yaml';
import { z } from 'zod';
import type { Investigation } from '../crds/investigation.js';
import { AppError } from '../errors.js';
import type { RestClient } from '../kube/rest-client.js';

/** The label of runbook ConfigMaps (in Pilothouse's namespace) and their key. */
export const runbookLabel = 'pilothouse.dev/runbook';
export const runbookKey = 'runbook.md';
/** The per-namespace instructions ConfigMap and its key. */
export const instructionsConfigMap = 'pilothouse-instructions';
export const instructionsKey = 'instructions.md';

const frontMatterSchema = z.object({
  title: z.string().optional(),
  match: z
    .object({
      alertname: z.string().optional(),
      labels: z.record(z.string(), z.string()).optional(),
      kinds: z.array(z.string()).optional(),
    })
    .optional(),
});

/** One runbook: its ConfigMap's name, title, match and Markdown body. */
export interface Runbook {
  name: string;
  title: string;
  match: z.infer<typeof frontMatterSchema>['match'];
  body: string;
}

/** Splits `---` front matter (YAML) from the Markdown; a runbook without valid front matter matches nothing. */
export function parseRunbook(name: string, text: string): Runbook {
  const found = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!found) return { name, title: name, match: undefined, body: text };
  let parsed: z.infer<typeof frontMatterSchema> = {};
  try {
    const result = frontMatterSchema.safeParse(yaml.load(found[1] ?? '', { schema: yaml.FAILSAFE_SCHEMA }));
    if (result.success) parsed = result.data;
  } catch {
    parsed = {};
  }
  return { name, title: parsed.title ?? name, match: parsed.match, body: found[2] ?? '' };
}

/** Whether a runbook's match holds for an investigation: every given criterion holds, and at least one is given. */
export function runbookMatches(runbook: Runbook, investigation: Investigation): boolean {
  const match = runbook.match;
  if (!match || (!match.alertname && !match.labels && !match.kinds)) return false;
  const labels = investigation.spec.alert?.labels ?? {};
  const wantedLabels = { ...match.labels, ...(match.alertname === undefined ? {} : { alertname: match.alertname }) };
  if (!Object.entries(wantedLabels).every(([key, value]) => labels[key] === value)) return false;
  return kindMatches(match.kinds, investigation.spec.subject?.kind);
}

function kindMatches(kinds: readonly string[] | undefined, kind: string | undefined): boolean {
  if (!kinds) return true;
  return kind !== undefined && kinds.some((wanted) => wanted.toLowerCase() === kind.toLowerCase());
}

interface ConfigMap {
  metadata: { name: string };
  data?: Record<string, string>;
}

/** Runbooks and per-namespace instructions, read as the service. */
export class Runbooks {
  constructor(
    private readonly rest: RestClient,
    private readonly namespace: string,
    /** The service's client on a cluster (per-namespace instructions live there). */
    private readonly clusterRest: (cluster: string | undefined) => RestClient | undefined,
  ) {}

  async list(): Promise<Runbook[]> {
    const list = await this.rest.json<{ items: ConfigMap[] }>('GET', `/api/v1/namespaces/${encodeURIComponent(this.namespace)}/configmaps`, {
      query: { labelSelector: `${runbookLabel}=true` },
    });
    return list.items.flatMap((item) => {
      const text = item.data?.[runbookKey];
      return text === undefined ? [] : [parseRunbook(item.metadata.name, text)];
    });
  }

  /** The `instructions.md` of a namespace's `pilothouse-instructions` ConfigMap on a cluster, if any. */
  async namespaceInstructions(cluster: string | undefined, namespace: string): Promise<string | undefined> {
    const rest = this.clusterRest(cluster);
    if (!rest) return undefined;
    try {
      const configMap = await rest.json<ConfigMap>('GET', `/api/v1/namespaces/${encodeURIComponent(namespace)}/configmaps/${instructionsConfigMap}`);
      return configMap.data?.[instructionsKey]?.trim() || undefined;
    } catch (error) {
      if (error instanceof AppError && (error.code === 'NOT_FOUND' || error.code === 'FORBIDDEN')) return undefined;
      throw error;
    }
  }

  /** The instructions of the namespace a chat is about, as a system prompt line (none without a namespace). */
  async chatInstructions(cluster: string | undefined, namespace: string | undefined): Promise<string[]> {
    if (!namespace) return [];
    const own = await this.namespaceInstructions(cluster, namespace);
    return own ? [namespaceLine(namespace, own)] : [];
  }

  /** What joins an investigation's instructions: matching runbooks and its namespace's instructions. */
  async forInvestigation(investigation: Investigation, namespace: string | undefined): Promise<string[]> {
    const runbooks = (await this.list()).filter((runbook) => runbookMatches(runbook, investigation));
    const lines = runbooks.map((runbook) => `Runbook "${runbook.title}" (${runbook.name}) applies; follow it:\n${runbook.body.trim()}`);
    const own = namespace === undefined ? undefined : await this.namespaceInstructions(investigation.spec.cluster, namespace);
    return own ? [...lines, namespaceLine(namespace ?? '', own)] : lines;
  }
}

/** The system prompt line of a namespace's instructions. */
export function namespaceLine(namespace: string, instructions: string): string {
  return `Instructions for namespace ${namespace} (ConfigMap ${instructionsConfigMap}):\n${instructions.slice(0, 8000)}`;
}

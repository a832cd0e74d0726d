import { z } from 'zod';
import { commandLineOf } from './shell-quote.js';

/** What a server-mode call runs: a kubectl argument line or a bash line (plus a manifest for apply). */
export interface CallPlan {
  tool: 'kubectl' | 'bash';
  /** kubectl: the arguments after `kubectl`; bash: the command line. */
  command: string;
  /** kubectl_apply: the manifest, written to a private temp file named by `{manifest}` in `command`. */
  manifest?: string;
  /** bash: the caller's timeout in seconds. */
  timeoutSeconds?: number;
  /** The cluster the call runs against (the `cluster` argument; absent: the home cluster). */
  cluster?: string;
}

/** One tool of the `--mcp` server mode. */
export interface ServerToolSpec<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  description: string;
  inputShape: Shape;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  plan(args: z.infer<z.ZodObject<Shape>>): CallPlan;
}

/** The placeholder of the manifest file in a kubectl_apply command line. */
export const manifestPlaceholder = '{manifest}';

function namespaceFlags(namespace: string | undefined): string[] {
  if (namespace === undefined || namespace === '') return [];
  return namespace === 'all' ? ['--all-namespaces'] : ['-n', namespace];
}

function optional(flag: string, value: string | number | undefined): string[] {
  return value === undefined || value === '' ? [] : [flag, String(value)];
}

/**
 * The `cluster` argument every server-mode tool takes (ADR 0035): one of the home cluster (`cluster.name`) and
 * `clusters:` of the config; absent: the home cluster.
 */
const cluster = z
  .string()
  .min(1)
  .max(63)
  .optional()
  .describe('The cluster to run against, by name (cluster.name or clusters[].name); default: the home cluster');

/** A tool with the `cluster` argument added to its input and carried into its plan. */
function spec<Shape extends z.ZodRawShape>(tool: ServerToolSpec<Shape>): ServerToolSpec {
  const inputShape = { ...tool.inputShape, cluster };
  const plan = (args: z.infer<z.ZodObject<Shape>> & { cluster?: string }): CallPlan => {
    const planned = tool.plan(args);
    return args.cluster === undefined ? planned : { ...planned, cluster: args.cluster };
  };
  return { ...tool, inputShape, plan } as unknown as ServerToolSpec;
}

/** The hints of a tool that only reads the cluster. */
const readsOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };

/** The plan of a kubectl call of these words (quoted for the command line). */
function kubectl(words: string[]): { tool: 'kubectl'; command: string } {
  return { tool: 'kubectl', command: commandLineOf(words) };
}

const resource = z.string().min(1).describe('Resource type, e.g. pods, deployments.apps, nodes');
const namespace = z.string().min(1).optional().describe('Namespace (default: the kubeconfig context namespace)');

/** The server-mode tools, exactly: kubectl, kubectl_get, kubectl_describe, kubectl_logs, kubectl_apply, bash; each takes `cluster`. */
export const serverToolSpecs: readonly ServerToolSpec[] = [
  spec({
    name: 'kubectl',
    description:
      'Run any kubectl command (the arguments after `kubectl`, e.g. `get pods -n default`). Commands that change the cluster are refused unless the server allows writes.',
    inputShape: { command: z.string().min(1).describe('kubectl arguments, e.g. `get pods -A -o wide`') },
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    plan: ({ command }) => ({ tool: 'kubectl', command: command.trim().replace(/^kubectl(\s+|$)/, '') }),
  }),
  spec({
    name: 'kubectl_get',
    description: 'List or get cluster resources (kubectl get).',
    inputShape: {
      resource,
      name: z.string().min(1).optional().describe('Object name; all objects when absent'),
      namespace: z.string().min(1).optional().describe('Namespace; "all" means all namespaces'),
      selector: z.string().min(1).optional().describe('Label selector, e.g. app=web'),
      output: z.string().min(1).optional().describe('Output format: wide, yaml, json, name, ...'),
    },
    annotations: readsOnly,
    plan: (args) =>
      kubectl([
        'get',
        args.resource,
        ...(args.name ? [args.name] : []),
        ...namespaceFlags(args.namespace),
        ...optional('-l', args.selector),
        ...optional('-o', args.output),
      ]),
  }),
  spec({
    name: 'kubectl_describe',
    description: 'Describe one cluster resource with its events (kubectl describe).',
    inputShape: { resource, name: z.string().min(1).describe('Object name'), namespace },
    annotations: readsOnly,
    plan: (args) => kubectl(['describe', args.resource, args.name, ...namespaceFlags(args.namespace)]),
  }),
  spec({
    name: 'kubectl_logs',
    description: 'Logs of a pod (kubectl logs); the last 100 lines by default.',
    inputShape: {
      pod: z.string().min(1).describe('Pod name'),
      namespace,
      container: z.string().min(1).optional().describe('Container name (required for pods with several containers)'),
      tail: z.number().int().min(1).max(100_000).optional().describe('Number of lines from the end (default 100)'),
      previous: z.boolean().optional().describe('Logs of the previous, terminated container instance'),
    },
    annotations: readsOnly,
    plan: (args) =>
      kubectl([
        'logs',
        args.pod,
        ...namespaceFlags(args.namespace),
        ...optional('-c', args.container),
        '--tail',
        String(args.tail ?? 100),
        ...(args.previous ? ['--previous'] : []),
      ]),
  }),
  spec({
    name: 'kubectl_apply',
    description:
      'Apply a YAML or JSON manifest (kubectl apply -f). With dry_run the API server validates without persisting. Refused unless the server allows writes (dry runs excepted).',
    inputShape: {
      manifest: z.string().min(1).describe('The manifest (YAML or JSON, several documents allowed)'),
      namespace,
      dry_run: z.boolean().optional().describe('Server-side dry run: validate only'),
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    plan: (args) => ({
      tool: 'kubectl',
      command: `${commandLineOf(['apply', ...namespaceFlags(args.namespace), ...(args.dry_run ? ['--dry-run=server'] : [])])} -f ${manifestPlaceholder}`,
      manifest: args.manifest,
    }),
  }),
  spec({
    name: 'bash',
    description:
      'Run a bash command line in a private working folder (kubectl on PATH). Disabled unless the server enables bash; commands that change anything are refused unless it allows writes.',
    inputShape: {
      command: z.string().min(1).describe('The bash command line'),
      timeout: z.number().int().min(1).max(600).optional().describe('Timeout in seconds (capped by the server)'),
    },
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    plan: (args) => ({ tool: 'bash', command: args.command, timeoutSeconds: args.timeout }),
  }),
];

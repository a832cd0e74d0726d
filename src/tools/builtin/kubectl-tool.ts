import path from 'node:path';
import { z } from 'zod';
import { checkKubectlArguments } from '../safety/index.js';
import type { Tool, ToolClusterSession, ToolContext, ToolResult } from '../types.js';
import { splitArguments } from './command-arguments.js';
import { confinedReadPath, confinedWritePath } from './confined-path.js';
import { runProcess } from './process-runner.js';
import { clusterArgument, errorResult, inputSchemaOf, parseInput } from './tool-input.js';
import { ensureUserFolder } from './user-files.js';

/** Settings of the kubectl tool. */
export interface KubectlToolOptions {
  kubectlPath: string;
  outputLimit: number;
  timeoutMs: number;
  /**
   * Config `tools.files.root`: kubectl runs in the caller's own folder below it (user-files.ts), and
   * local files it names must lie inside that folder.
   */
  files?: { root?: string };
}

const kubectlInput = z.object({
  command: z.string().describe('Arguments after `kubectl`, e.g. `get pods -n default -o wide`. No pipes or shell syntax.'),
  cluster: clusterArgument,
});

/**
 * The argument check (the same grammar and allowlist as the safety analysis, src/tools/safety):
 * refuses flags that pick the endpoint, identity, credentials, caches or output files, commands that
 * cannot be contained, and local files outside the files root (symlinks resolved here).
 */
async function argumentRefusal(argv: readonly string[], filesRoot: string | undefined): Promise<string | undefined> {
  const root = filesRoot === undefined ? undefined : path.resolve(filesRoot);
  const check = checkKubectlArguments(argv, root === undefined ? {} : { filesRoot: root });
  if (!check.ok) return check.reason;
  if (root === undefined) return undefined;
  for (const file of check.read) {
    const confined = await confinedReadPath(root, file);
    if (!confined.ok) return `${file}: ${confined.error}`;
  }
  for (const file of check.write) {
    const confined = await confinedWritePath(root, file);
    if (!confined.ok) return `${file}: ${confined.error}`;
  }
  return undefined;
}

function withoutProgramName(argv: string[]): string[] {
  return argv[0] === 'kubectl' ? argv.slice(1) : argv;
}

/** The command without a leading `kubectl ` the model may have typed. */
function argumentsText(command: string): string {
  return command.trim().replace(/^kubectl(\s+|$)/, '');
}

/** kubectl's cache folder for a session: in the session's private folder (deleted with it). */
function sessionCacheDir(cluster: ToolClusterSession): string {
  return path.join(path.dirname(cluster.kubeconfigPath), 'cache');
}

/**
 * A small environment: no service secrets; the session's kubeconfig only; HOME and the cache in the
 * session's private folder (its discovery part linked to its cluster's warm copy); editors fail at once (`kubectl edit`).
 */
function kubectlEnvironment(cluster: ToolClusterSession): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: path.dirname(cluster.kubeconfigPath),
    KUBECONFIG: cluster.kubeconfigPath,
    KUBECACHEDIR: sessionCacheDir(cluster),
    KUBE_EDITOR: 'false',
    EDITOR: 'false',
    // No kubectl preferences file may add aliases or default flags before the line is parsed.
    KUBERC: 'off',
  };
}

/**
 * The `kubectl` tool: runs the real kubectl binary with the arguments split by shell quoting rules,
 * never through a shell. Its only cluster is the call's policy proxy (`context.proxySession`): the
 * kubeconfig holds the proxy's URL and one-time token, no service credential; without a session it
 * refuses to run. The model's arguments pass kubectl's own grammar and the flag allowlist first.
 * kubectl's discovery cache is the warm copy of the session's own cluster (`context.proxySession.discovery`, built and
 * closed with that cluster's gateway: kubectl-discovery-cache.ts), never one built through another cluster.
 */
export function createKubectlTool(options: KubectlToolOptions): Tool {
  return {
    definition: {
      name: 'kubectl',
      description:
        "Run one kubectl command against a cluster (arguments after `kubectl`; `cluster` names it, default: the chat's cluster). Read commands run at once; " +
        'changes need approval. No shell features: use the bash tool for pipes.',
      inputSchema: inputSchemaOf(kubectlInput),
      type: 'kubectl',
      readOnly: false,
      destructive: true,
    },
    commandLine(args: Record<string, unknown>): string {
      return `kubectl ${argumentsText(String(args.command ?? ''))}`.trimEnd();
    },
    async run(args: Record<string, unknown>, context: ToolContext): Promise<ToolResult> {
      const input = parseInput(kubectlInput, args);
      if (!input.ok) return input.result;
      const split = splitArguments(input.value.command);
      if (!split.ok) return errorResult(`kubectl tool: ${split.error}`);
      const argv = withoutProgramName(split.argv);
      const root = options.files?.root === undefined ? undefined : await ensureUserFolder(options.files.root, context.principal.username);
      const refused = await argumentRefusal(argv, root);
      if (refused) return errorResult(`kubectl tool: refused: ${refused}`);
      if (!context.proxySession) return errorResult('kubectl tool: no cluster session for this call (the policy proxy is not open); the command was not run');
      await context.proxySession.discovery?.prepare(sessionCacheDir(context.proxySession));
      const result = await runProcess({
        file: options.kubectlPath,
        cwd: root,
        args: ['--kubeconfig', context.proxySession.kubeconfigPath, ...argv],
        environment: kubectlEnvironment(context.proxySession),
        timeoutMs: options.timeoutMs,
        outputLimit: options.outputLimit,
        signal: context.signal,
        // kubectl starts no helpers that outlive it: the service's own session and scheduler group.
        ownSession: false,
      });
      await context.proxySession.discovery?.settle();
      return result;
    },
  };
}

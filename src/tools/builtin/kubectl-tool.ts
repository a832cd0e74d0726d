import path from 'node:path';
import { z } from 'zod';
import type { Tool, ToolClusterSession, ToolContext, ToolResult } from '../types.js';
import { splitArguments } from './command-arguments.js';
import { runProcess } from './process-runner.js';
import { errorResult, inputSchemaOf, parseInput } from './tool-input.js';

/** Settings of the kubectl tool. */
export interface KubectlToolOptions {
  kubectlPath: string;
  outputLimit: number;
  timeoutMs: number;
}

const kubectlInput = z.object({
  command: z.string().describe('Arguments after `kubectl`, e.g. `get pods -n default -o wide`. No pipes or shell syntax.'),
});

/** Flags that choose the cluster or identity: the tool sets these, the model may not. */
const identityFlags = [
  '--kubeconfig', '--context', '--cluster', '--user', '--as', '--as-group', '--as-uid', '--token', '--server', '-s',
  '--username', '--password', '--client-certificate', '--client-key', '--certificate-authority',
  '--insecure-skip-tls-verify', '--tls-server-name',
];

function identityFlagIn(argv: readonly string[]): string | undefined {
  const end = argv.indexOf('--');
  const flags = end === -1 ? argv : argv.slice(0, end);
  return flags.find((word) => identityFlags.some((flag) => word === flag || word.startsWith(`${flag}=`)));
}

function withoutProgramName(argv: string[]): string[] {
  return argv[0] === 'kubectl' ? argv.slice(1) : argv;
}

/** The command without a leading `kubectl ` the model may have typed. */
function argumentsText(command: string): string {
  return command.trim().replace(/^kubectl(\s+|$)/, '');
}

/**
 * A small environment: no service secrets; the session's kubeconfig only; HOME and the discovery
 * cache in the session's private folder (deleted with it); editors fail at once (`kubectl edit`).
 */
function kubectlEnvironment(cluster: ToolClusterSession): NodeJS.ProcessEnv {
  const folder = path.dirname(cluster.kubeconfigPath);
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: folder,
    KUBECONFIG: cluster.kubeconfigPath,
    KUBECACHEDIR: path.join(folder, 'cache'),
    KUBE_EDITOR: 'false',
    EDITOR: 'false',
  };
}

/**
 * The `kubectl` tool: runs the real kubectl binary with the arguments split by shell quoting rules,
 * never through a shell. Its only cluster is the call's policy proxy (`context.cluster`): the
 * kubeconfig holds the proxy's URL and one-time token, no service credential; without a session it
 * refuses to run. Cluster and identity flags of the model are refused as well.
 */
export function createKubectlTool(options: KubectlToolOptions): Tool {
  return {
    definition: {
      name: 'kubectl',
      description:
        'Run one kubectl command against the cluster (arguments after `kubectl`). Read commands run at once; ' +
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
      const flag = identityFlagIn(argv);
      if (flag) return errorResult(`kubectl tool: flag ${flag} is set by the service and cannot be given`);
      if (!context.cluster) return errorResult('kubectl tool: no cluster session for this call (the policy proxy is not open); the command was not run');
      return runProcess({
        file: options.kubectlPath,
        args: ['--kubeconfig', context.cluster.kubeconfigPath, ...argv],
        environment: kubectlEnvironment(context.cluster),
        timeoutMs: options.timeoutMs,
        outputLimit: options.outputLimit,
        signal: context.signal,
      });
    },
  };
}

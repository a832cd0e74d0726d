import { z } from 'zod';
import type { Tool, ToolContext, ToolResult } from '../types.js';
import type { BashSandbox } from './bash-sandbox.js';
import { ensureSessionSandbox } from './session-sandbox.js';
import { clusterArgument, errorResult, inputSchemaOf, parseInput } from './tool-input.js';

/** Settings of the bash tool. */
export interface BashToolOptions {
  enabled: boolean;
  /** Parent of the per-session working folders. */
  sandboxRoot: string;
  /** Where every command runs (bubblewrap); it never sees the service's kubeconfig. */
  sandbox: BashSandbox;
  outputLimit: number;
  timeoutMs: number;
}

const bashInput = z.object({
  command: z.string().describe('A bash command line, run with `bash -c` in a per-session working folder.'),
  cluster: clusterArgument,
});

/**
 * The `bash` tool: `bash -c` inside the sandbox, with the session's private folder as HOME and working
 * folder, a timeout and an output cap, and no network: the cluster is reachable only through the
 * call's policy proxy (`context.proxySession`: its kubeconfig, relayed to its Unix socket); without one the
 * shell has no KUBECONFIG and nothing outside the sandbox to reach. When disabled, or
 * when the sandbox cannot run here, it answers with an error result naming the reason.
 */
export function createBashTool(options: BashToolOptions): Tool {
  return {
    definition: {
      name: 'bash',
      description:
        'Run a bash command line (pipes allowed) in a private working folder; kubectl and helm are on PATH. ' + 'Commands that change anything need approval.',
      inputSchema: inputSchemaOf(bashInput),
      type: 'bash',
      readOnly: false,
      destructive: true,
    },
    commandLine(args: Record<string, unknown>): string {
      return String(args.command ?? '');
    },
    async run(args: Record<string, unknown>, context: ToolContext): Promise<ToolResult> {
      if (!options.enabled) return errorResult('bash tool is disabled (tools.bash.enabled)');
      const input = parseInput(bashInput, args);
      if (!input.ok) return input.result;
      const home = await ensureSessionSandbox(options.sandboxRoot, context.sessionId);
      return options.sandbox.run({
        command: input.value.command,
        home,
        proxy: context.proxySession && {
          kubeconfigPath: context.proxySession.kubeconfigPath,
          socketPath: context.proxySession.socket.path,
          port: context.proxySession.socket.port,
        },
        timeoutMs: options.timeoutMs,
        outputLimit: options.outputLimit,
        signal: context.signal,
      });
    },
  };
}

import path from 'node:path';
import { z } from 'zod';
import type { Tool, ToolClusterSession, ToolContext, ToolResult } from '../types.js';
import { runProcess } from './process-runner.js';
import { ensureSessionSandbox } from './session-sandbox.js';
import { errorResult, inputSchemaOf, parseInput } from './tool-input.js';

/** Settings of the bash tool. */
export interface BashToolOptions {
  enabled: boolean;
  /** Parent of the per-session working folders. */
  sandboxRoot: string;
  kubectlPath: string;
  bashPath?: string;
  outputLimit: number;
  timeoutMs: number;
}

const bashInput = z.object({
  command: z.string().describe('A bash command line, run with `bash -c` in a per-session working folder.'),
});

/**
 * PATH, HOME (the sandbox) and KUBECONFIG (the call's policy proxy, when a session is open) only:
 * the service's own environment (secrets) is not passed on.
 */
function sandboxEnvironment(options: BashToolOptions, sandbox: string, cluster: ToolClusterSession | undefined): NodeJS.ProcessEnv {
  const binaries = path.dirname(options.kubectlPath);
  const environment: NodeJS.ProcessEnv = {
    PATH: [binaries, '/usr/local/bin', '/usr/bin', '/bin'].join(path.delimiter),
    HOME: sandbox,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
  };
  if (cluster) environment.KUBECONFIG = cluster.kubeconfigPath;
  return environment;
}

/**
 * The `bash` tool: `bash -c` in `<sandboxRoot>/<session>` with a minimal environment, a timeout and an
 * output cap. When disabled it answers with an error result (and `createBuiltinTools` leaves it out).
 * While impersonation is on it refuses to run: kubectl inside a shell could not be made to impersonate.
 */
export function createBashTool(options: BashToolOptions): Tool {
  return {
    definition: {
      name: 'bash',
      description:
        'Run a bash command line (pipes allowed) in a private working folder; kubectl and helm are on PATH. ' +
        'Commands that change anything need approval.',
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
      if (context.impersonate) return errorResult('bash tool is not available while cluster impersonation is on; use the kubectl tool');
      const input = parseInput(bashInput, args);
      if (!input.ok) return input.result;
      const sandbox = await ensureSessionSandbox(options.sandboxRoot, context.sessionId);
      return runProcess({
        file: options.bashPath ?? 'bash',
        args: ['-c', input.value.command],
        cwd: sandbox,
        environment: sandboxEnvironment(options, sandbox, context.cluster),
        timeoutMs: options.timeoutMs,
        outputLimit: options.outputLimit,
        signal: context.signal,
      });
    },
  };
}

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Principal } from '../../auth/principal.js';
import { createBashTool, createKubectlTool } from '../../tools/builtin/index.js';
import type { Tool, ToolResult } from '../../tools/types.js';
import { quoteArgument } from './shell-quote.js';
import { manifestPlaceholder, type CallPlan } from './tool-specs.js';

/** How the server mode reaches the cluster and runs commands. */
export interface ExecutorOptions {
  kubectlPath: string;
  kubeconfigPath?: string;
  kubeContext?: string;
  /** Cluster identity to impersonate (`--as`), from `authorization.impersonation`. */
  impersonate?: string;
  /** Output cap in bytes. */
  outputLimit: number;
  /** Upper bound of every call's run time. */
  timeoutMs: number;
  /** Working folder root of the bash tool. */
  sandboxRoot: string;
  principal: Principal;
}

/** Runs server-mode call plans with the built-in kubectl and bash tools (real binaries, no shell for kubectl). */
export class ToolExecutor {
  private readonly kubectl: Tool;

  constructor(private readonly options: ExecutorOptions) {
    this.kubectl = createKubectlTool({ ...options });
  }

  async run(plan: CallPlan, signal?: AbortSignal): Promise<ToolResult> {
    if (plan.tool === 'bash') return this.bash(plan, signal);
    if (plan.manifest === undefined) return this.kubectl.run({ command: plan.command }, this.context(signal));
    const folder = await mkdtemp(join(tmpdir(), 'pilothouse-apply-'));
    try {
      await writeFile(join(folder, 'manifest.yaml'), plan.manifest, { mode: 0o600 });
      // kubectl runs in the private folder, the only files root it may read from.
      const kubectl = createKubectlTool({ ...this.options, files: { root: folder } });
      return await kubectl.run({ command: plan.command.replace(manifestPlaceholder, quoteArgument('manifest.yaml')) }, this.context(signal));
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  private bash(plan: CallPlan, signal?: AbortSignal): Promise<ToolResult> {
    const requested = plan.timeoutSeconds === undefined ? this.options.timeoutMs : plan.timeoutSeconds * 1000;
    const tool = createBashTool({ ...this.options, enabled: true, timeoutMs: Math.min(requested, this.options.timeoutMs) });
    return tool.run({ command: plan.command }, this.context(signal));
  }

  private context(signal?: AbortSignal): { principal: Principal; sessionId: string; impersonate?: string; signal?: AbortSignal } {
    return { principal: this.options.principal, sessionId: 'mcp-server', impersonate: this.options.impersonate, signal };
  }
}

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Principal } from '../../auth/principal.js';
import { createBashTool, createKubectlTool, type BashSandbox } from '../../tools/builtin/index.js';
import { createBashSandbox } from '../../tools/builtin/bash-sandbox-setup.js';
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
  private readonly sandbox: BashSandbox;

  constructor(private readonly options: ExecutorOptions) {
    this.kubectl = createKubectlTool({ ...options });
    this.sandbox = createBashSandbox({ kubectlPath: options.kubectlPath });
  }

  async run(plan: CallPlan, signal?: AbortSignal): Promise<ToolResult> {
    if (plan.tool === 'bash') return this.bash(plan, signal);
    if (plan.manifest === undefined) return this.kubectl.run({ command: plan.command }, this.context(signal));
    const folder = await mkdtemp(join(tmpdir(), 'pilothouse-apply-'));
    try {
      const file = join(folder, 'manifest.yaml');
      await writeFile(file, plan.manifest, { mode: 0o600 });
      return await this.kubectl.run({ command: plan.command.replace(manifestPlaceholder, quoteArgument(file)) }, this.context(signal));
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  private bash(plan: CallPlan, signal?: AbortSignal): Promise<ToolResult> {
    const requested = plan.timeoutSeconds === undefined ? this.options.timeoutMs : plan.timeoutSeconds * 1000;
    const { sandboxRoot, outputLimit } = this.options;
    const tool = createBashTool({ enabled: true, sandboxRoot, sandbox: this.sandbox, outputLimit, timeoutMs: Math.min(requested, this.options.timeoutMs) });
    return tool.run({ command: plan.command }, this.context(signal));
  }

  private context(signal?: AbortSignal): { principal: Principal; sessionId: string; impersonate?: string; signal?: AbortSignal } {
    return { principal: this.options.principal, sessionId: 'mcp-server', impersonate: this.options.impersonate, signal };
  }
}

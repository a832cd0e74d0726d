import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Principal } from '../../rbac/principal.js';
import { createBashTool, createKubectlTool, type BashSandbox } from '../../tools/builtin/index.js';
import { createBashSandbox } from '../../tools/builtin/bash-sandbox-setup.js';
import { withRefusals } from '../../tools/cluster-refusals.js';
import type { Tool, ToolClusterGateway, ToolClusterRefusal, ToolContext, ToolResult } from '../../tools/types.js';
import { quoteArgument } from './shell-quote.js';
import { manifestPlaceholder, type CallPlan } from './tool-specs.js';

/** How the server mode reaches the cluster and runs commands. */
export interface ExecutorOptions {
  kubectlPath: string;
  /** Opens the per-call policy proxy: the tools hold no credentials of the service. */
  cluster: ToolClusterGateway;
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

/** A run's result plus the requests the policy proxy refused during it (for the audit row). */
export type ExecutorResult = ToolResult & { refusals: readonly ToolClusterRefusal[] };

/**
 * Runs server-mode call plans with the built-in kubectl and bash tools (real binaries, no shell for
 * kubectl), each call through its own policy proxy in mode `direct`: the MCP client acts for a
 * person, so the principal's role (from `mcp_server.allow_writes`) and the policy decide every
 * cluster request, whatever the safety analysis thought of the command.
 */
export class ToolExecutor {
  private readonly kubectl: Tool;
  private readonly sandbox: BashSandbox;

  constructor(private readonly options: ExecutorOptions) {
    this.kubectl = createKubectlTool({ ...options });
    this.sandbox = createBashSandbox({ kubectlPath: options.kubectlPath });
  }

  async run(plan: CallPlan, signal?: AbortSignal): Promise<ExecutorResult> {
    if (plan.tool === 'bash') return this.inSession(this.bashTool(plan), plan.command, signal);
    if (plan.manifest === undefined) return this.inSession(this.kubectl, plan.command, signal);
    const folder = await mkdtemp(join(tmpdir(), 'pilothouse-apply-'));
    try {
      await writeFile(join(folder, 'manifest.yaml'), plan.manifest, { mode: 0o600 });
      // kubectl runs in the private folder, the only files root it may read from.
      const kubectl = createKubectlTool({ ...this.options, files: { root: folder } });
      return await this.inSession(kubectl, plan.command.replace(manifestPlaceholder, quoteArgument('manifest.yaml')), signal);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  private bashTool(plan: CallPlan): Tool {
    const requested = plan.timeoutSeconds === undefined ? this.options.timeoutMs : plan.timeoutSeconds * 1000;
    const { sandboxRoot, outputLimit } = this.options;
    return createBashTool({ enabled: true, sandboxRoot, sandbox: this.sandbox, outputLimit, timeoutMs: Math.min(requested, this.options.timeoutMs) });
  }

  private async inSession(tool: Tool, command: string, signal?: AbortSignal): Promise<ExecutorResult> {
    let session;
    try {
      session = await this.options.cluster.open({ principal: this.options.principal, mode: 'direct', signal });
    } catch {
      return { output: 'could not open the cluster session (policy proxy) for this call; the command was not run', isError: true, refusals: [] };
    }
    try {
      const result = await tool.run({ command }, { ...this.context(signal), cluster: session });
      const refusals = session.refusals();
      return { ...withRefusals(result, refusals), refusals };
    } finally {
      await session.close();
    }
  }

  private context(signal?: AbortSignal): ToolContext {
    return { principal: this.options.principal, sessionId: 'mcp-server', impersonate: this.options.impersonate, mode: 'direct', signal };
  }
}

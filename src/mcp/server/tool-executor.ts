import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAppError } from '../../errors.js';
import type { Principal } from '../../rbac/principal.js';
import { createBashTool, createKubectlTool, type BashSandbox } from '../../tools/builtin/index.js';
import { createBashSandbox } from '../../tools/builtin/bash-sandbox-setup.js';
import { userFolderName, ensureUserFolder } from '../../tools/builtin/user-files.js';
import { withRefusals } from '../../tools/cluster-refusals.js';
import type { Tool, ToolClusterGateway, ToolClusterRefusal, ToolContext, ToolMode, ToolResult } from '../../tools/types.js';
import { quoteArgument } from './shell-quote.js';
import { manifestPlaceholder, type CallPlan } from './tool-specs.js';

/** How the server mode reaches the cluster and runs commands. */
export interface ExecutorOptions {
  kubectlPath: string;
  /**
   * Opens the per-call policy proxy on the cluster a call names (`clusterName`; absent: the home cluster), with
   * that cluster's policy and the caller's identity there; an unknown name is a NOT_FOUND AppError. The tools hold
   * no credentials of the service.
   */
  proxyGateway: ToolClusterGateway;
  /** The policy's mode of every call: `direct` when the server may write, else `read` (reads and dry runs only). */
  mode: ToolMode;
  /** Output cap in bytes. */
  outputLimit: number;
  /** Upper bound of every call's run time. */
  timeoutMs: number;
  /** Working folder root of the bash tool (one folder per caller below it). */
  sandboxRoot: string;
}

/**
 * Why no session opened: the gateway's own sentence for an AppError (unknown cluster: its name only), else a
 * fixed one (no address or credential of a cluster reaches the caller).
 */
function sessionFailure(cluster: string | undefined, error: unknown): string {
  const where = cluster === undefined ? '' : ` on cluster "${cluster}"`;
  const why = isAppError(error) && error.code !== 'INTERNAL' ? `: ${error.message}` : '';
  return `could not open the cluster session (policy proxy)${where} for this call${why}; the command was not run`;
}

/** A run's result plus the requests the policy proxy refused during it (for the audit row). */
export type ExecutorResult = ToolResult & { refusals: readonly ToolClusterRefusal[] };

/**
 * Runs server-mode call plans with the built-in kubectl and bash tools (real binaries, no shell for
 * kubectl), each call through its own policy proxy for the caller's principal: the MCP client acts
 * for that person, so their role, per-user and resource-level roles and the one policy decide every
 * cluster request (in mode `read` unless `mcp_server.allow_writes`), whatever the safety analysis
 * thought of the command. Bash runs in the caller's own folder; manifests are read from a private one.
 */
export class ToolExecutor {
  private readonly kubectl: Tool;
  private readonly sandbox: BashSandbox;

  constructor(private readonly options: ExecutorOptions) {
    this.kubectl = createKubectlTool({ ...options });
    this.sandbox = createBashSandbox({ kubectlPath: options.kubectlPath });
  }

  async run(plan: CallPlan, caller: Principal, signal?: AbortSignal): Promise<ExecutorResult> {
    if (plan.tool === 'bash') return this.inSession(this.bashTool(plan), plan, plan.command, this.context(caller, signal));
    if (plan.manifest === undefined) return this.inSession(this.kubectl, plan, plan.command, this.context(caller, signal));
    const folder = await mkdtemp(join(tmpdir(), 'pilothouse-apply-'));
    try {
      // kubectl runs in the caller's folder of this private root, the only files it may read.
      await writeFile(join(await ensureUserFolder(folder, caller.username), 'manifest.yaml'), plan.manifest, { mode: 0o600 });
      const kubectl = createKubectlTool({ ...this.options, files: { root: folder } });
      return await this.inSession(kubectl, plan, plan.command.replace(manifestPlaceholder, quoteArgument('manifest.yaml')), this.context(caller, signal));
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  private bashTool(plan: CallPlan): Tool {
    const requested = plan.timeoutSeconds === undefined ? this.options.timeoutMs : plan.timeoutSeconds * 1000;
    const { sandboxRoot, outputLimit } = this.options;
    return createBashTool({ enabled: true, sandboxRoot, sandbox: this.sandbox, outputLimit, timeoutMs: Math.min(requested, this.options.timeoutMs) });
  }

  private async inSession(tool: Tool, plan: CallPlan, command: string, context: ToolContext): Promise<ExecutorResult> {
    let session;
    try {
      session = await this.options.proxyGateway.open({
        principal: context.principal,
        mode: this.options.mode,
        signal: context.signal,
        clusterName: plan.cluster,
      });
    } catch (error) {
      return { output: sessionFailure(plan.cluster, error), isError: true, refusals: [] };
    }
    try {
      const result = await tool.run({ command }, { ...context, proxySession: session });
      const refusals = session.refusals();
      return { ...withRefusals(result, refusals), refusals };
    } finally {
      await session.close();
    }
  }

  /** The caller's context; the bash folder is per caller (`mcp-<user folder>`), never shared between callers. */
  private context(principal: Principal, signal?: AbortSignal): ToolContext {
    return { principal, sessionId: `mcp-${userFolderName(principal.username)}`, mode: this.options.mode, signal };
  }
}

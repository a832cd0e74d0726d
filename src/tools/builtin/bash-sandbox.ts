import { realpathSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ToolResult } from '../types.js';
import { findOnPath } from '../binaries.js';
import { bubblewrapArguments, sandboxEnvironment, type SandboxPlan } from './bash-sandbox-arguments.js';
import { runProcess } from './process-runner.js';
import { readSystemLayout } from './sandbox-layout.js';
import { errorResult } from './tool-input.js';

/** Whether the sandbox can run here; when not, why (shown in `GET /api/health` and in the tool's error). */
export type SandboxStatus = { available: true } | { available: false; reason: string };

/** One sandboxed shell line. */
export interface SandboxRequest {
  command: string;
  /** Host path of the session's private folder (HOME inside). */
  home: string;
  /** The per-call proxy kubeconfig; absent: the shell has no KUBECONFIG at all. */
  kubeconfigPath?: string;
  timeoutMs: number;
  outputLimit: number;
  signal?: AbortSignal;
}

/** Runs shell lines in isolation; the bash tool's only way to run anything. */
export interface BashSandbox {
  /** Probes once (cached): a sandbox that cannot start leaves the bash tool disabled with the reason. */
  status(): Promise<SandboxStatus>;
  run(request: SandboxRequest): Promise<ToolResult>;
}

export interface BubblewrapOptions {
  /** The `bwrap` program; default: `bwrap` on PATH, else /usr/bin/bwrap. */
  bwrapPath?: string;
  /** Programs offered by name on PATH inside (kubectl, helm), host paths. */
  binaries: readonly { name: string; path: string }[];
  /** Upper bound of the start probe. */
  probeTimeoutMs?: number;
}

const probeOutputLimit = 4096;

/** The last non-empty line of a failed probe's output (bubblewrap's own message), without runner notes. */
function reasonOf(output: string): string {
  const lines = output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && line !== '[stderr]' && !line.startsWith('[exit code'))
    .map((line) => line.replace(/^\[(.*)\]$/, '$1'));
  return lines.at(-1) ?? 'bubblewrap failed without a message';
}

/** Each binary by its real path (a symlinked kubectl is bound as the file it points to); missing ones are left out. */
function resolveBinaries(binaries: BubblewrapOptions['binaries']): SandboxPlan['binaries'] {
  const resolved: { name: string; path: string }[] = [];
  for (const binary of binaries) {
    try {
      resolved.push({ name: binary.name, path: realpathSync(binary.path) });
    } catch {
      // not installed: not offered
    }
  }
  return resolved;
}

/** The proxy's kubeconfig folder must be private (no group or other access) before it is bound. */
async function isPrivateFolder(kubeconfigPath: string): Promise<boolean> {
  try {
    const folder = path.dirname(kubeconfigPath);
    const stats = await stat(folder);
    return path.isAbsolute(kubeconfigPath) && folder !== '/' && stats.isDirectory() && (stats.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/**
 * The bash sandbox on bubblewrap (Debian package `bubblewrap`): new user, PID, IPC, UTS and cgroup
 * namespaces, an empty root with read-only system folders, the session folder as HOME, the proxy
 * kubeconfig folder read-only. Needs user namespaces (also as root); the probe finds out at start.
 */
export class BubblewrapSandbox implements BashSandbox {
  private readonly bwrapPath: string;
  private readonly base: Omit<SandboxPlan, 'home' | 'kubeconfigPath' | 'disableUserNamespaces'>;
  private probed?: Promise<{ status: SandboxStatus; disableUserNamespaces: boolean }>;

  constructor(private readonly options: BubblewrapOptions) {
    this.bwrapPath = options.bwrapPath ?? findOnPath('bwrap') ?? '/usr/bin/bwrap';
    this.base = { system: readSystemLayout(), binaries: resolveBinaries(options.binaries) };
  }

  async status(): Promise<SandboxStatus> {
    return (await this.probe()).status;
  }

  async run(request: SandboxRequest): Promise<ToolResult> {
    const probe = await this.probe();
    if (!probe.status.available) return errorResult(`bash tool is unavailable: ${probe.status.reason}`);
    if (request.kubeconfigPath !== undefined && !(await isPrivateFolder(request.kubeconfigPath))) {
      return errorResult('bash tool refused to run: the cluster kubeconfig is not in a private folder');
    }
    const plan: SandboxPlan = { ...this.base, home: request.home, kubeconfigPath: request.kubeconfigPath, disableUserNamespaces: probe.disableUserNamespaces };
    return runProcess({
      file: this.bwrapPath,
      args: bubblewrapArguments(plan, request.command),
      // bubblewrap's own environment is readable inside as /proc/1/environ: it gets the sandbox's, nothing more.
      environment: sandboxEnvironment(plan),
      timeoutMs: request.timeoutMs,
      outputLimit: request.outputLimit,
      signal: request.signal,
    });
  }

  private probe(): Promise<{ status: SandboxStatus; disableUserNamespaces: boolean }> {
    this.probed ??= this.detect();
    return this.probed;
  }

  private explain(reason: string): string {
    if (reason.startsWith('could not start')) return `bubblewrap cannot run here (${this.bwrapPath} not found: install the Debian package bubblewrap)`;
    return `bubblewrap cannot run here (${reason}); it needs user namespaces`;
  }

  /** Runs `true` in the exact sandbox the tool uses, first with `--disable-userns`, then without (bubblewrap < 0.8). */
  private async detect(): Promise<{ status: SandboxStatus; disableUserNamespaces: boolean }> {
    const home = await mkdtemp(path.join(tmpdir(), 'pilothouse-sandbox-probe-'));
    try {
      let reason = '';
      for (const disableUserNamespaces of [true, false]) {
        const plan: SandboxPlan = { ...this.base, home, disableUserNamespaces };
        const result = await runProcess({
          file: this.bwrapPath,
          args: bubblewrapArguments(plan, 'true'),
          environment: sandboxEnvironment(plan),
          timeoutMs: this.options.probeTimeoutMs ?? 10_000,
          outputLimit: probeOutputLimit,
        });
        if (!result.isError) return { status: { available: true }, disableUserNamespaces };
        reason = reasonOf(result.output);
      }
      return { status: { available: false, reason: this.explain(reason) }, disableUserNamespaces: false };
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }
}

import { realpathSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolResult } from '../types.js';
import { findOnPath } from '../binaries.js';
import {
  bubblewrapArguments,
  sandboxEnvironment,
  type ProcMount,
  type SandboxForwarder,
  type SandboxPlan,
  type SandboxProxy,
} from './bash-sandbox-arguments.js';
import { runProcess } from './process-runner.js';
import { readSystemLayout } from './sandbox-layout.js';
import { sandboxSeccompFilter } from './sandbox-seccomp.js';
import { errorResult } from './tool-input.js';

/** Whether the sandbox can run here and with which /proc; when not, why (shown in `GET /api/health` and in the tool's error). */
export type SandboxStatus = { available: true; proc: ProcMount } | { available: false; reason: string };

/** The choices the start probe makes once: `--disable-userns` or not, a fresh or an empty /proc. */
export type SandboxVariant = Pick<SandboxPlan, 'disableUserNamespaces' | 'proc'>;

/** One probe run of a variant: it ran, or bubblewrap's reason why not. */
export type ProbeAttempt = (variant: SandboxVariant) => Promise<{ ok: true } | { ok: false; reason: string }>;

/** bubblewrap's message when the kernel refuses a fresh proc (a runtime's masked /proc, e.g. runc). */
const procRefused = /can't mount proc on/i;

/**
 * The first variant that runs: with `--disable-userns`, then without (bubblewrap < 0.8); each with a
 * fresh /proc, and with an empty one only when the fresh one failed because proc cannot be mounted
 * (any other failure is not worked around). None: the last reason.
 */
export async function chooseSandboxVariant(attempt: ProbeAttempt): Promise<{ variant: SandboxVariant } | { reason: string }> {
  let reason = 'bubblewrap failed without a message';
  for (const disableUserNamespaces of [true, false]) {
    let variant: SandboxVariant = { disableUserNamespaces, proc: 'fresh' };
    let result = await attempt(variant);
    if (!result.ok && procRefused.test(result.reason)) {
      variant = { disableUserNamespaces, proc: 'empty' };
      result = await attempt(variant);
    }
    if (result.ok) return { variant };
    reason = result.reason;
  }
  return { reason };
}

/** One sandboxed shell line. */
export interface SandboxRequest {
  command: string;
  /** Host path of the session's private folder (HOME inside). */
  home: string;
  /** The call's policy proxy (kubeconfig and Unix socket in one private folder); absent: no KUBECONFIG, no way out at all. */
  proxy?: SandboxProxy;
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
  /** node and the relay script run inside before the shell when there is a proxy; default: this service's node and the script beside this module. */
  forwarder?: SandboxForwarder;
}

/** This service's node binary and `sandbox-forwarder` beside this module (the .ts from src in development, the .js in dist/). */
function defaultForwarder(): SandboxForwarder {
  const module = fileURLToPath(import.meta.url);
  return { node: realpathSync(process.execPath), script: path.join(path.dirname(module), `sandbox-forwarder${path.extname(module)}`) };
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

/** The proxy's folder must be private (no group or other access) and hold the socket too before it is bound. */
async function isPrivateFolder(proxy: SandboxProxy): Promise<boolean> {
  try {
    const folder = path.dirname(proxy.kubeconfigPath);
    const stats = await stat(folder);
    const sameFolder = path.dirname(proxy.socketPath) === folder;
    return path.isAbsolute(proxy.kubeconfigPath) && folder !== '/' && sameFolder && stats.isDirectory() && (stats.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/** A private folder for the probe's HOME and a stand-in proxy folder (so the probe starts the relay too). */
async function probeFolders(): Promise<{ root: string; home: string; proxy: SandboxProxy }> {
  const root = await mkdtemp(path.join(tmpdir(), 'pilothouse-sandbox-probe-'));
  const home = path.join(root, 'home');
  const folder = path.join(root, 'proxy');
  await mkdir(home);
  await mkdir(folder);
  await chmod(folder, 0o700);
  return { root, home, proxy: { kubeconfigPath: path.join(folder, 'kubeconfig'), socketPath: path.join(folder, 'proxy.sock'), port: 6443 } };
}

/**
 * The bash sandbox on bubblewrap (Debian package `bubblewrap`): new user, PID, IPC, network, UTS and
 * cgroup namespaces, an empty root with read-only system folders, the session folder as HOME, the
 * proxy folder read-only, and a relay from the sandbox's loopback to the proxy's Unix socket (the only
 * way out). Needs user namespaces (also as root); the probe finds out at start, and whether /proc is
 * fresh or, where a runtime's masked /proc refuses a fresh one, empty (ProcMount).
 */
export class BubblewrapSandbox implements BashSandbox {
  private readonly bwrapPath: string;
  private readonly base: Omit<SandboxPlan, 'home' | 'proxy' | 'disableUserNamespaces' | 'proc'>;
  private probed?: Promise<{ status: SandboxStatus; variant: SandboxVariant }>;
  /** The seccomp filter every run hands bubblewrap (descriptor 3); built by the probe. */
  private filter: Buffer = Buffer.alloc(0);

  constructor(private readonly options: BubblewrapOptions) {
    this.bwrapPath = options.bwrapPath ?? findOnPath('bwrap') ?? '/usr/bin/bwrap';
    this.base = { system: readSystemLayout(), binaries: resolveBinaries(options.binaries), forwarder: options.forwarder ?? defaultForwarder() };
  }

  async status(): Promise<SandboxStatus> {
    return (await this.probe()).status;
  }

  async run(request: SandboxRequest): Promise<ToolResult> {
    const probe = await this.probe();
    if (!probe.status.available) return errorResult(`bash tool is unavailable: ${probe.status.reason}`);
    if (request.proxy !== undefined && !(await isPrivateFolder(request.proxy))) {
      return errorResult('bash tool refused to run: the cluster kubeconfig is not in a private folder');
    }
    const plan: SandboxPlan = { ...this.base, home: request.home, proxy: request.proxy, ...probe.variant };
    return runProcess({
      file: this.bwrapPath,
      args: bubblewrapArguments(plan, request.command),
      // bubblewrap's own environment is readable inside as /proc/1/environ: it gets the sandbox's, nothing more.
      environment: sandboxEnvironment(plan),
      inputs: [this.filter],
      timeoutMs: request.timeoutMs,
      outputLimit: request.outputLimit,
      signal: request.signal,
    });
  }

  private probe(): Promise<{ status: SandboxStatus; variant: SandboxVariant }> {
    this.probed ??= this.detect();
    return this.probed;
  }

  private explain(reason: string): string {
    if (reason.startsWith('could not start')) return `bubblewrap cannot run here (${this.bwrapPath} not found: install the Debian package bubblewrap)`;
    return `bubblewrap cannot run here (${reason}); it needs user namespaces`;
  }

  /**
   * Runs `true` in the exact sandbox the tool uses, relay included, for the variants chooseSandboxVariant
   * tries; the first that runs is the one every call uses.
   */
  private async detect(): Promise<{ status: SandboxStatus; variant: SandboxVariant }> {
    try {
      this.filter = sandboxSeccompFilter();
    } catch (error) {
      return { status: { available: false, reason: (error as Error).message }, variant: { disableUserNamespaces: false, proc: 'fresh' } };
    }
    const { root, home, proxy } = await probeFolders();
    try {
      const chosen = await chooseSandboxVariant(async (variant) => {
        const plan: SandboxPlan = { ...this.base, home, proxy, ...variant };
        const result = await runProcess({
          file: this.bwrapPath,
          args: bubblewrapArguments(plan, 'true'),
          environment: sandboxEnvironment(plan),
          inputs: [this.filter],
          timeoutMs: this.options.probeTimeoutMs ?? 10_000,
          outputLimit: probeOutputLimit,
        });
        return result.isError ? { ok: false, reason: reasonOf(result.output) } : { ok: true };
      });
      if ('variant' in chosen) return { status: { available: true, proc: chosen.variant.proc }, variant: chosen.variant };
      return { status: { available: false, reason: this.explain(chosen.reason) }, variant: { disableUserNamespaces: false, proc: 'fresh' } };
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }
}

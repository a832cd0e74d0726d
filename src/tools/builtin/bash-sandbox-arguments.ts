import path from 'node:path';
import { etcAllowlist, type SystemEntry } from './sandbox-layout.js';

/** HOME and working folder inside the sandbox (the host's session folder is bound here). */
export const sandboxHome = '/home/pilothouse';
/** Where kubectl and helm appear inside the sandbox. */
export const sandboxBinaries = '/opt/pilothouse/bin';

/** Everything one sandboxed run is built from; host paths unless named otherwise. */
export interface SandboxPlan {
  /** The host's `/bin`, `/lib*`, `/sbin` (from readSystemLayout). */
  system: readonly SystemEntry[];
  /** Programs to offer on PATH by name (kubectl, helm): each file alone, read-only. */
  binaries: readonly { name: string; path: string }[];
  /** The session's private folder: HOME and working folder, the only writable host path. */
  home: string;
  /** The per-call proxy kubeconfig; its (private) folder is bound read-only at the same path. None: no KUBECONFIG. */
  kubeconfigPath?: string;
  /** `--disable-userns` (bubblewrap 0.8+): the shell cannot make namespaces of its own. */
  disableUserNamespaces: boolean;
}

/**
 * The only environment the shell (and bubblewrap itself, whose `/proc/1/environ` the shell can read)
 * gets: PATH, HOME, LANG, TERM and KUBECONFIG when a proxy kubeconfig is given. Nothing of the service's.
 */
export function sandboxEnvironment(plan: Pick<SandboxPlan, 'kubeconfigPath'>): Record<string, string> {
  const environment: Record<string, string> = {
    PATH: [sandboxBinaries, '/usr/local/bin', '/usr/bin', '/bin', '/usr/sbin', '/sbin'].join(':'),
    HOME: sandboxHome,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
  };
  if (plan.kubeconfigPath) environment.KUBECONFIG = plan.kubeconfigPath;
  return environment;
}

/** Namespaces, process hygiene and the empty root everything else is mounted into. */
function isolationArguments(plan: SandboxPlan): string[] {
  const namespaces = ['--unshare-user', '--unshare-ipc', '--unshare-pid', '--unshare-uts', '--unshare-cgroup-try'];
  if (plan.disableUserNamespaces) namespaces.push('--disable-userns');
  return [...namespaces, '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--hostname', 'pilothouse-sandbox', '--tmpfs', '/'];
}

/** Read-only `/usr`, the system roots as on the host, and the allowlisted pieces of `/etc`. */
function systemArguments(plan: SandboxPlan): string[] {
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const entry of plan.system) {
    if (entry.kind === 'symlink') args.push('--symlink', entry.target, entry.path);
    else args.push('--ro-bind', entry.path, entry.path);
  }
  for (const file of etcAllowlist) args.push('--ro-bind-try', file, file);
  return args;
}

/** A fresh /proc (of the new PID namespace), /dev and /tmp; the binaries; HOME; the proxy kubeconfig folder. */
function sessionArguments(plan: SandboxPlan): string[] {
  const args = ['--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--tmpfs', '/var/tmp'];
  for (const binary of plan.binaries) args.push('--ro-bind', binary.path, path.posix.join(sandboxBinaries, binary.name));
  args.push('--bind', plan.home, sandboxHome);
  if (plan.kubeconfigPath) {
    const folder = path.dirname(plan.kubeconfigPath);
    args.push('--ro-bind', folder, folder);
  }
  return args;
}

/** `--clearenv` and then exactly sandboxEnvironment(plan). */
function environmentArguments(plan: SandboxPlan): string[] {
  const args = ['--clearenv'];
  for (const [name, value] of Object.entries(sandboxEnvironment(plan))) args.push('--setenv', name, value);
  return args;
}

/**
 * The bubblewrap argv (after the `bwrap` program) that runs `bash -c command` in an empty root with
 * only the system's programs, the session folder and the proxy kubeconfig folder in view: no data
 * dir, no config, no service environment, no service-account token, no other session. The network
 * namespace is shared (the shell must reach the proxy on loopback).
 */
export function bubblewrapArguments(plan: SandboxPlan, command: string): string[] {
  return [
    ...isolationArguments(plan),
    ...systemArguments(plan),
    ...sessionArguments(plan),
    ...environmentArguments(plan),
    '--chdir',
    sandboxHome,
    '--',
    'bash',
    '-c',
    command,
  ];
}

import path from 'node:path';
import { etcAllowlist, type SystemEntry } from './sandbox-layout.js';
import { seccompDescriptor } from './sandbox-seccomp.js';

/** HOME and working folder inside the sandbox (the host's session folder is bound here). */
export const sandboxHome = '/home/pilothouse';
/** Where kubectl and helm appear inside the sandbox. */
export const sandboxBinaries = '/opt/pilothouse/bin';
/** Where node and the cluster relay (sandbox-forwarder) appear inside the sandbox; not on PATH. */
export const sandboxLibexec = '/opt/pilothouse/libexec';

/** How the shell reaches the call's policy proxy without the host's network (all host paths). */
export interface SandboxProxy {
  /** The proxy kubeconfig; its (private) folder is bound read-only at the same path. */
  kubeconfigPath: string;
  /** The proxy's Unix socket, in the kubeconfig's folder. */
  socketPath: string;
  /** The loopback port the kubeconfig names: the relay listens on the sandbox's own 127.0.0.1 there. */
  port: number;
}

/** The relay that runs before the shell when there is a proxy: the service's node binary and the forwarder script (host paths). */
export interface SandboxForwarder {
  node: string;
  /** `sandbox-forwarder.ts` (development, node strips the types) or `.js` (dist/). */
  script: string;
}

/** Everything one sandboxed run is built from; host paths unless named otherwise. */
export interface SandboxPlan {
  /** The host's `/bin`, `/lib*`, `/sbin` (from readSystemLayout). */
  system: readonly SystemEntry[];
  /** Programs to offer on PATH by name (kubectl, helm): each file alone, read-only. */
  binaries: readonly { name: string; path: string }[];
  /** The session's private folder: HOME and working folder, the only writable host path. */
  home: string;
  /** The call's policy proxy. None: no KUBECONFIG, no relay, nothing outside the sandbox to reach. */
  proxy?: SandboxProxy;
  forwarder: SandboxForwarder;
  /** `--disable-userns` (bubblewrap 0.8+): the shell cannot make namespaces of its own. */
  disableUserNamespaces: boolean;
  /** The sandbox's /proc (chosen once by the start probe, see ProcMount). */
  proc: ProcMount;
}

/**
 * `fresh`: `--proc /proc`, a proc of the sandbox's own PID namespace (only its own processes).
 * `empty`: `--tmpfs /proc`, an empty folder, used only where the kernel refuses a fresh proc (a
 * container runtime that masks parts of its /proc, e.g. runc without `procMount: Unmasked`): the
 * sandbox then sees no processes at all, not even its own, and nothing of the host's or the pod's.
 */
export type ProcMount = 'fresh' | 'empty';

/** kubectl's cache inside the call's own fresh `/tmp` (see sandboxEnvironment). */
export const sandboxKubeCache = '/tmp/kube-cache';

/**
 * The only environment the shell (and bubblewrap itself, whose `/proc/1/environ` the shell can read)
 * gets: PATH, HOME, LANG, TERM, and KUBECONFIG and KUBECACHEDIR when a proxy kubeconfig is given. Nothing of
 * the service's. kubectl's cache is in the call's fresh `/tmp`, not in HOME (kept across the session's calls):
 * its discovery folder is named by the proxy's loopback port, which a later call on another cluster may get
 * again, so a cache kept in HOME could resolve that call's kinds with another cluster's discovery.
 */
export function sandboxEnvironment(plan: Pick<SandboxPlan, 'proxy'>): Record<string, string> {
  const environment: Record<string, string> = {
    PATH: [sandboxBinaries, '/usr/local/bin', '/usr/bin', '/bin', '/usr/sbin', '/sbin'].join(':'),
    HOME: sandboxHome,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
  };
  if (plan.proxy) Object.assign(environment, { KUBECONFIG: plan.proxy.kubeconfigPath, KUBECACHEDIR: sandboxKubeCache });
  return environment;
}

/**
 * Namespaces, process hygiene and the empty root everything else is mounted into. The network
 * namespace is new too: only `lo` (bubblewrap brings it up), no route to the host's loopback, its
 * listeners (port forwards, the API) or abstract Unix sockets, nor anywhere else.
 */
function isolationArguments(plan: SandboxPlan): string[] {
  const namespaces = ['--unshare-user', '--unshare-ipc', '--unshare-pid', '--unshare-net', '--unshare-uts', '--unshare-cgroup-try'];
  if (plan.disableUserNamespaces) namespaces.push('--disable-userns');
  // The seccomp filter (sandbox-seccomp.ts, handed over on descriptor 3): RuntimeDefault's refusals inside,
  // where the pod itself runs Unconfined so that bubblewrap can make its namespaces.
  const seccomp = ['--seccomp', String(seccompDescriptor)];
  return [...namespaces, ...seccomp, '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--hostname', 'pilothouse-sandbox', '--tmpfs', '/'];
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

/** Inside paths of node and the forwarder script; the script keeps its language (`.mts` for TypeScript, `.mjs` for JavaScript: both ES modules). */
export function sandboxForwarderPaths(forwarder: SandboxForwarder): { node: string; script: string } {
  const extension = path.extname(forwarder.script) === '.ts' ? '.mts' : '.mjs';
  return { node: path.posix.join(sandboxLibexec, 'node'), script: path.posix.join(sandboxLibexec, `sandbox-forwarder${extension}`) };
}

/** /proc (fresh of the new PID namespace, or empty), /dev and /tmp; the binaries; HOME; with a proxy: its folder (kubeconfig and socket), node and the forwarder. */
function sessionArguments(plan: SandboxPlan): string[] {
  const proc = plan.proc === 'fresh' ? ['--proc', '/proc'] : ['--tmpfs', '/proc'];
  const args = [...proc, '--dev', '/dev', '--tmpfs', '/tmp', '--tmpfs', '/var/tmp'];
  for (const binary of plan.binaries) args.push('--ro-bind', binary.path, path.posix.join(sandboxBinaries, binary.name));
  args.push('--bind', plan.home, sandboxHome);
  if (plan.proxy) {
    const folder = path.dirname(plan.proxy.kubeconfigPath);
    const inside = sandboxForwarderPaths(plan.forwarder);
    args.push('--ro-bind', folder, folder, '--ro-bind', plan.forwarder.node, inside.node, '--ro-bind', plan.forwarder.script, inside.script);
  }
  return args;
}

/** `bash -c command`, behind the relay to the proxy when there is one (it listens first, then runs the shell and exits with its status). */
function commandArguments(plan: SandboxPlan, command: string): string[] {
  const shell = ['bash', '-c', command];
  if (!plan.proxy) return shell;
  const inside = sandboxForwarderPaths(plan.forwarder);
  return [inside.node, inside.script, String(plan.proxy.port), plan.proxy.socketPath, ...shell];
}

/** `--clearenv` and then exactly sandboxEnvironment(plan). */
function environmentArguments(plan: SandboxPlan): string[] {
  const args = ['--clearenv'];
  for (const [name, value] of Object.entries(sandboxEnvironment(plan))) args.push('--setenv', name, value);
  return args;
}

/**
 * The bubblewrap argv (after the `bwrap` program) that runs `bash -c command` under the seccomp filter
 * read from descriptor 3 (sandboxSeccompFilter, which the caller must hand over there) in an empty root with
 * only the system's programs, the session folder and the proxy kubeconfig folder in view: no data
 * dir, no config, no service environment, no service-account token, no other session. No network
 * either: the only way out is the proxy's Unix socket, through the forwarder on the sandbox's loopback.
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
    ...commandArguments(plan, command),
  ];
}

import { describe, expect, it } from 'vitest';
import { bubblewrapArguments, sandboxBinaries, sandboxEnvironment, sandboxHome, sandboxLibexec, type SandboxPlan } from './bash-sandbox-arguments.js';
import { etcAllowlist, readSystemLayout } from './sandbox-layout.js';

const plan: SandboxPlan = {
  system: [
    { path: '/bin', kind: 'symlink', target: 'usr/bin' },
    { path: '/lib', kind: 'folder' },
  ],
  binaries: [
    { name: 'kubectl', path: '/opt/tools/kubectl-1.33' },
    { name: 'helm', path: '/opt/tools/helm' },
  ],
  home: '/var/lib/pilothouse/sandboxes/session-1',
  proxy: { kubeconfigPath: '/tmp/pilothouse-proxy-abc/kubeconfig', socketPath: '/tmp/pilothouse-proxy-abc/proxy.sock', port: 40123 },
  forwarder: { node: '/opt/node-24/bin/node', script: '/srv/pilothouse/dist/tools/builtin/sandbox-forwarder.js' },
  disableUserNamespaces: true,
  proc: 'fresh',
};

/** Every host path the sandbox sees, with how: the sources of the bind operations. */
function boundSources(args: string[]): { source: string; target: string; writable: boolean }[] {
  const binds: { source: string; target: string; writable: boolean }[] = [];
  args.forEach((arg, index) => {
    if (['--bind', '--ro-bind', '--ro-bind-try', '--bind-try', '--dev-bind'].includes(arg)) {
      binds.push({ source: args[index + 1] ?? '', target: args[index + 2] ?? '', writable: arg === '--bind' || arg === '--bind-try' || arg === '--dev-bind' });
    }
  });
  return binds;
}

const commandTail = (args: string[]) => args.slice(args.indexOf('--'));

describe('bubblewrap arguments', () => {
  const args = bubblewrapArguments(plan, 'kubectl get pods | wc -l');

  it('runs bash -c with the command as one argument behind the relay to the proxy socket, after the options', () => {
    expect(commandTail(args)).toEqual([
      '--',
      `${sandboxLibexec}/node`,
      `${sandboxLibexec}/sandbox-forwarder.mjs`,
      '40123',
      '/tmp/pilothouse-proxy-abc/proxy.sock',
      'bash',
      '-c',
      'kubectl get pods | wc -l',
    ]);
    const development = bubblewrapArguments({ ...plan, forwarder: { node: '/n', script: '/repo/src/tools/builtin/sandbox-forwarder.ts' } }, 'true');
    expect(commandTail(development).slice(0, 3)).toEqual(['--', `${sandboxLibexec}/node`, `${sandboxLibexec}/sandbox-forwarder.mts`]);
    const withoutProxy: SandboxPlan = { ...plan };
    delete withoutProxy.proxy;
    expect(commandTail(bubblewrapArguments(withoutProxy, 'ls'))).toEqual(['--', 'bash', '-c', 'ls']);
  });

  it('isolates in new user, PID, IPC, network, UTS and cgroup namespaces, and dies with its parent', () => {
    for (const flag of [
      '--unshare-user',
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-net',
      '--unshare-uts',
      '--unshare-cgroup-try',
      '--disable-userns',
      '--die-with-parent',
      '--new-session',
    ]) {
      expect(args).toContain(flag);
    }
    expect(args.join(' ')).toContain('--cap-drop ALL');
    expect(args).not.toContain('--share-net');
    expect(args).not.toContain('--unshare-all');
    expect(args.slice(0, args.indexOf('--ro-bind'))).toEqual(expect.arrayContaining(['--tmpfs', '/']));
    expect(bubblewrapArguments({ ...plan, disableUserNamespaces: false }, 'true')).not.toContain('--disable-userns');
  });

  it('binds only the system read-only, the binaries as single files, HOME writable, the proxy folder, node and the relay read-only', () => {
    const binds = boundSources(args);
    expect(binds.filter((bind) => bind.writable)).toEqual([{ source: plan.home, target: sandboxHome, writable: true }]);
    expect(binds).toContainEqual({ source: '/usr', target: '/usr', writable: false });
    expect(binds).toContainEqual({ source: '/lib', target: '/lib', writable: false });
    expect(binds).toContainEqual({ source: '/opt/tools/kubectl-1.33', target: `${sandboxBinaries}/kubectl`, writable: false });
    expect(binds).toContainEqual({ source: '/opt/tools/helm', target: `${sandboxBinaries}/helm`, writable: false });
    expect(binds).toContainEqual({ source: '/tmp/pilothouse-proxy-abc', target: '/tmp/pilothouse-proxy-abc', writable: false });
    expect(binds).toContainEqual({ source: '/opt/node-24/bin/node', target: `${sandboxLibexec}/node`, writable: false });
    expect(binds).toContainEqual({ source: plan.forwarder.script, target: `${sandboxLibexec}/sandbox-forwarder.mjs`, writable: false });
    expect(args.join(' ')).toContain('--symlink usr/bin /bin');
    expect(args.join(' ')).toContain('--proc /proc --dev /dev --tmpfs /tmp');
    // The empty variant: a tmpfs on /proc instead, and nothing else changes.
    const empty = bubblewrapArguments({ ...plan, proc: 'empty' }, 'kubectl get pods | wc -l');
    expect(empty.join(' ')).toContain('--tmpfs /proc --dev /dev --tmpfs /tmp');
    expect(empty).not.toContain('--proc');
    expect(empty.filter((arg) => arg !== '--tmpfs' && arg !== '--proc')).toEqual(args.filter((arg) => arg !== '--tmpfs' && arg !== '--proc'));
    // The proxy folder is mounted after the fresh /tmp, or the tmpfs would hide it.
    expect(args.lastIndexOf('/tmp/pilothouse-proxy-abc')).toBeGreaterThan(args.indexOf('/tmp'));
  });

  it('binds no credential, config, data, service or other-session path', () => {
    const sources = boundSources(args).map((bind) => bind.source);
    const forbidden = [
      '/',
      '/etc',
      '/etc/pilothouse',
      '/etc/ssl',
      '/etc/ssl/private',
      '/etc/shadow',
      '/var',
      '/var/lib/pilothouse',
      '/var/lib/pilothouse/sandboxes',
      '/var/run',
      '/run',
      '/var/run/secrets/kubernetes.io',
      '/run/secrets',
      '/root',
      '/home',
      '/proc',
      '/sys',
      '/tmp',
    ];
    for (const path of forbidden) expect(sources, path).not.toContain(path);
    for (const source of sources) {
      expect(
        source.startsWith('/var/run/secrets') || source.startsWith('/run/secrets') || source.startsWith('/root') || source.startsWith('/etc/pilothouse'),
        source,
      ).toBe(false);
    }
    expect(
      etcAllowlist.every((file) => file.startsWith('/etc/') && !file.includes('private') && !file.includes('shadow') && !file.includes('pilothouse')),
    ).toBe(true);
  });

  it('clears the environment and sets exactly PATH, HOME, LANG, TERM, KUBECONFIG and KUBECACHEDIR (in the call’s own /tmp)', () => {
    expect(args).toContain('--clearenv');
    const set: Record<string, string> = {};
    args.forEach((arg, index) => {
      if (arg === '--setenv') set[args[index + 1] ?? ''] = args[index + 2] ?? '';
    });
    expect(set).toEqual(sandboxEnvironment(plan));
    expect(Object.keys(set).sort()).toEqual(['HOME', 'KUBECACHEDIR', 'KUBECONFIG', 'LANG', 'PATH', 'TERM']);
    expect(set).toMatchObject({ HOME: sandboxHome, KUBECONFIG: plan.proxy?.kubeconfigPath, KUBECACHEDIR: '/tmp/kube-cache' });
    expect(set.PATH?.split(':')).not.toContain(sandboxLibexec);
    expect(set.PATH?.split(':')[0]).toBe(sandboxBinaries);
    // The environment is cleared before any variable is set.
    expect(args.slice(0, args.indexOf('--clearenv'))).not.toContain('--setenv');
    expect(args.join(' ')).toContain(`--chdir ${sandboxHome}`);
  });

  it('has no KUBECONFIG and binds no kubeconfig folder, node or relay without a proxy session', () => {
    const withoutCluster: SandboxPlan = { ...plan };
    delete withoutCluster.proxy;
    const bare = bubblewrapArguments(withoutCluster, 'kubectl get pods');
    expect(bare.join(' ')).not.toContain('KUBECONFIG');
    expect(bare.join(' ')).not.toContain('pilothouse-proxy');
    expect(bare.join(' ')).not.toContain(sandboxLibexec);
    expect(bare).toContain('--unshare-net');
    expect(sandboxEnvironment({})).not.toHaveProperty('KUBECONFIG');
    expect(withoutCluster).not.toHaveProperty('proxy');
  });
});

describe('system layout', () => {
  it('reports the host’s /bin and /lib as folders or symlinks, never anything else', () => {
    const layout = readSystemLayout();
    expect(layout.map((entry) => entry.path)).toContain('/bin');
    for (const entry of layout) expect(['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']).toContain(entry.path);
  });
});

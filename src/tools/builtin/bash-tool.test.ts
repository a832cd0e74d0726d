import { spawnSync } from 'node:child_process';
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markedSeconds, processWithArgument } from '../../../test/helpers/child-process.js';
import { waitFor } from '../../../test/helpers/cluster.js';
import { findOptionalBinary } from '../binaries.js';
import type { ToolContext } from '../types.js';
import { bubblewrapArguments, sandboxEnvironment, sandboxHome } from './bash-sandbox-arguments.js';
import { BubblewrapSandbox } from './bash-sandbox.js';
import { createBashSandbox } from './bash-sandbox-setup.js';
import { createBashTool, type BashToolOptions } from './bash-tool.js';
import { readSystemLayout } from './sandbox-layout.js';
import { sandboxSeccompFilter } from './sandbox-seccomp.js';

const principal = { username: 'tester', role: 'admin', roles: [] } as const;
const kubectlPath = findOptionalBinary('kubectl') ?? '/usr/bin/kubectl';
const sandbox = createBashSandbox({ kubectlPath });
let root: string;
let sandboxRoot: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'pilothouse-bash-'));
  sandboxRoot = path.join(root, 'sandboxes');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const bashTool = (overrides: Partial<BashToolOptions> = {}) =>
  createBashTool({ enabled: true, sandboxRoot, sandbox, outputLimit: 64 * 1024, timeoutMs: 10_000, ...overrides });
const run = (command: string, context: Partial<ToolContext> = {}, overrides: Partial<BashToolOptions> = {}) =>
  bashTool(overrides).run({ command }, { principal, sessionId: 'session-1', ...context });

/** A kubeconfig in a private (0700) folder, as the policy proxy hands one out. */
async function proxyKubeconfig(mode = 0o700): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'pilothouse-proxy-'));
  await chmod(folder, mode);
  const file = path.join(folder, 'kubeconfig');
  await writeFile(file, 'apiVersion: v1\nkind: Config\nclusters: [{name: proxy, cluster: {server: "http://127.0.0.1:9"}}]\n', { mode: 0o600 });
  return file;
}

/** The per-call session the policy proxy hands a tool: its kubeconfig and, beside it, the Unix socket the sandbox relays its loopback port to. */
const proxySession = (kubeconfigPath: string, port = 40009) => ({
  kubeconfigPath,
  socket: { path: path.join(path.dirname(kubeconfigPath), 'proxy.sock'), port },
  refusals: () => [],
  close: async () => undefined,
});

describe('bash tool in the bubblewrap sandbox', () => {
  it('probes the sandbox as available here', async () => {
    expect(await sandbox.status()).toEqual({ available: true, proc: 'fresh' });
  });

  it('runs a shell line with pipes', async () => {
    expect(await run('printf "b\\na\\n" | sort')).toEqual({ output: 'a\nb\n', isError: false, truncated: false, exitCode: 0 });
    expect(bashTool().commandLine({ command: 'ls | wc -l' })).toBe('ls | wc -l');
    expect(bashTool().definition).toMatchObject({ name: 'bash', type: 'bash', readOnly: false, destructive: true });
  });

  it('works in the private per-session folder, which is HOME and the only writable place that lasts', async () => {
    const result = await run('pwd; echo "$HOME"; echo kept > note.txt; touch /usr/x 2>/dev/null || echo usr-read-only');
    expect(result.output).toBe(`${sandboxHome}\n${sandboxHome}\nusr-read-only\n`);
    const folder = path.join(sandboxRoot, 'session-1');
    expect(await readFile(path.join(folder, 'note.txt'), 'utf8')).toBe('kept\n');
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    expect((await run('cat note.txt')).output).toBe('kept\n');
  });

  it('keeps hostile session ids inside the sandbox root', async () => {
    await run('touch escaped', { sessionId: '../../etc' });
    const folders = await import('node:fs/promises').then(({ readdir }) => readdir(sandboxRoot));
    expect(folders.every((name) => !name.includes('/') && name !== '..')).toBe(true);
    expect(folders.length).toBeGreaterThan(0);
  });

  it('does not show other sessions, the sandbox root or the host paths around it', async () => {
    await run('echo mine > secret-of-session-2', { sessionId: 'session-2' });
    const result = await run(
      `ls /home; ls ${sandboxRoot} ${root} 2>&1; find / '(' -path /usr -o -path /proc ')' -prune -o -name 'secret-of-session-2' -print 2>/dev/null; echo done`,
    );
    expect(result.output).toContain('pilothouse\n');
    expect(result.output).toContain('No such file or directory');
    expect(result.output).not.toContain('secret-of-session-2');
    expect(result.output).not.toContain('session-2');
  });

  it('passes none of the service environment on, not even through /proc', async () => {
    process.env.PILOTHOUSE_TEST_SECRET = 'very-secret-value';
    try {
      const result = await run('echo "[$PILOTHOUSE_TEST_SECRET]"; env; cat /proc/*/environ 2>/dev/null | tr "\\0" "\\n"');
      expect(result.output).toContain('[]');
      expect(result.output).not.toContain('very-secret-value');
      expect(result.output).not.toContain('KUBECONFIG');
    } finally {
      delete process.env.PILOTHOUSE_TEST_SECRET;
    }
  });

  it('sees only its own processes (new PID namespace)', async () => {
    const result = await run('ls /proc | grep -E "^[0-9]+$" | sort -n | tr "\\n" " "; echo; cat /proc/1/comm');
    const [listed = '', ...names] = result.output.trim().split('\n');
    // A PID namespace of its own numbers from 1: bwrap, then the shell and this command's own pipeline.
    const pids = listed.trim().split(' ').map(Number);
    expect(pids).toEqual(pids.map((_pid, index) => index + 1));
    expect(names).toEqual(['bwrap']);
    expect(pids.length).toBeGreaterThan(1);
    expect(
      (await run(`test -e /proc/${process.pid}/environ && tr "\\0" "\\n" < /proc/${process.pid}/environ | grep -c PATH || echo none`)).output,
    ).not.toContain('very-secret');
  });

  it('finds kubectl on PATH, and without a proxy session kubectl has no kubeconfig', async () => {
    const result = await run('command -v kubectl; echo "[${KUBECONFIG:-}]"; ls -A "$HOME/.kube" 2>/dev/null | wc -l');
    expect(result.output).toBe('/opt/pilothouse/bin/kubectl\n[]\n0\n');
  });

  it('uses the proxy kubeconfig as KUBECONFIG, read-only', async () => {
    const kubeconfigPath = await proxyKubeconfig();
    const result = await run('echo "$KUBECONFIG"; grep -c server "$KUBECONFIG"; { echo x >> "$KUBECONFIG"; } 2>/dev/null || echo read-only', {
      proxySession: proxySession(kubeconfigPath),
    });
    expect(result.output).toBe(`${kubeconfigPath}\n1\nread-only\n`);
    expect(await readFile(kubeconfigPath, 'utf8')).not.toContain('x\n');
  });

  it('gives kubectl a cache of the call’s own (fresh /tmp): nothing one call cached, e.g. on another cluster, reaches the next', async () => {
    const cluster = proxySession(await proxyKubeconfig());
    const first = await run('mkdir -p "$KUBECACHEDIR/discovery/127.0.0.1_40009" && echo "$KUBECACHEDIR"', { proxySession: cluster });
    expect(first.output).toBe('/tmp/kube-cache\n');
    const second = await run('ls -A "$KUBECACHEDIR" 2>/dev/null | wc -l; ls -A "$HOME/.kube" 2>/dev/null | wc -l', { proxySession: cluster });
    expect(second.output).toBe('0\n0\n');
  });

  it('has no network but lo, and reaches no listener on the host’s loopback', async () => {
    const host = createServer((_request, response) => response.end('host answered'));
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    try {
      const port = (host.address() as AddressInfo).port;
      const result = await run(
        `cut -d: -f1 /proc/net/dev | tail -n +3; curl -sS --max-time 5 http://127.0.0.1:${port}/ || echo no-route; echo x >/dev/tcp/127.0.0.1/${port}`,
      );
      expect(result.output).toMatch(/^ *lo\n/);
      expect(result.output).toContain('no-route\n');
      expect(result.output).toContain(`/dev/tcp/127.0.0.1/${port}: Connection refused`);
      expect(result.output).not.toContain('host answered');
    } finally {
      host.close();
    }
  });

  it('relays its own 127.0.0.1:<proxy port> to the proxy’s Unix socket, and keeps the command’s output and status', async () => {
    const kubeconfigPath = await proxyKubeconfig();
    const session = proxySession(kubeconfigPath, 40123);
    const proxy = createServer((request, response) => response.end(`proxy saw ${request.method} ${request.url}`));
    await new Promise<void>((resolve) => proxy.listen(session.socket.path, resolve));
    try {
      const relayed = await run('curl -sS --max-time 5 http://127.0.0.1:40123/api/v1/pods; echo; echo oops >&2; exit 3', { proxySession: session });
      expect(relayed).toMatchObject({ isError: true, exitCode: 3, output: 'proxy saw GET /api/v1/pods\n\n[stderr]\noops\n\n[exit code 3]' });
      const timedOut = await run('sleep 20; echo never', { proxySession: session }, { timeoutMs: 1500 });
      expect(timedOut.output).toContain('[timed out after 1500 ms]');
      expect(timedOut.output).not.toContain('never');
    } finally {
      proxy.close();
    }
  });

  it('refuses a kubeconfig whose folder is not private', async () => {
    const kubeconfigPath = await proxyKubeconfig(0o755);
    const result = await run('echo ran', { proxySession: proxySession(kubeconfigPath) });
    expect(result).toEqual({ output: 'bash tool refused to run: the cluster kubeconfig is not in a private folder', isError: true });
  });

  it('hides the config folder, root’s home and the service-account token folder', async () => {
    const result = await run(
      'for p in /etc/pilothouse /root /var/run/secrets /run/secrets /etc/shadow /etc/ssl/private /var/lib; do test -e $p && echo "visible $p"; done; echo checked',
    );
    expect(result.output).toBe('checked\n');
  });

  it('kills the command and its children on timeout', async () => {
    const result = await run('sleep 20 & sleep 20; echo never', {}, { timeoutMs: 300 });
    expect(result).toMatchObject({ isError: true });
    expect(result.output).toContain('[timed out after 300 ms]');
    expect(result.output).not.toContain('never');
  });

  it('stops when the signal aborts', async () => {
    const controller = new AbortController();
    const seconds = markedSeconds(20);
    const running = run(`sleep ${seconds}`, { signal: controller.signal });
    await waitFor(() => processWithArgument(seconds));
    controller.abort();
    expect(await running).toMatchObject({ isError: true, output: expect.stringContaining('[cancelled]') });
    await waitFor(() => !processWithArgument(seconds)); // killed, not left running
  });

  it('caps the output', async () => {
    const result = await run("head -c 200000 /dev/zero | tr '\\0' a", {}, { outputLimit: 1000 });
    expect(result.truncated).toBe(true);
    expect(result.output).toBe(`${'a'.repeat(1000)}\n[output truncated at 1000 bytes]`);
  });

  it('reports a failing command with its stderr and exit code', async () => {
    const result = await run('echo out; echo oops >&2; exit 3');
    expect(result).toMatchObject({ isError: true, exitCode: 3 });
    expect(result.output).toBe('out\n\n[stderr]\noops\n\n[exit code 3]');
  });

  it('refuses to run when disabled, and names the reason when the sandbox cannot start', async () => {
    expect(await run('echo hi', {}, { enabled: false })).toEqual({ output: 'bash tool is disabled (tools.bash.enabled)', isError: true });
    const broken = new BubblewrapSandbox({ bwrapPath: path.join(root, 'no-bwrap-here'), binaries: [] });
    const status = await broken.status();
    expect(status).toMatchObject({ available: false, reason: expect.stringContaining('bubblewrap cannot run here') });
    const result = await run('echo hi', {}, { sandbox: broken });
    expect(result).toMatchObject({ isError: true, output: expect.stringMatching(/^bash tool is unavailable: bubblewrap cannot run here/) });
    expect(result.output).not.toContain('hi\n');
  });

  it('stays off with bubblewrap’s own reason where user namespaces are not allowed', async () => {
    // bubblewrap inside a sandbox that forbids new user namespaces: what a locked-down host looks like.
    const wrapper = path.join(root, 'bwrap-without-user-namespaces');
    await writeFile(wrapper, '#!/bin/sh\nexec bwrap --unshare-user --disable-userns --dev-bind / / -- bwrap "$@"\n', { mode: 0o755 });
    const locked = new BubblewrapSandbox({ bwrapPath: wrapper, binaries: [] });
    const status = await locked.status();
    expect(status).toMatchObject({
      available: false,
      reason: expect.stringMatching(/^bubblewrap cannot run here \(bwrap: .*namespace.*\); it needs user namespaces$/),
    });
    const result = await run('echo hi', {}, { sandbox: locked });
    expect(result).toEqual({ output: `bash tool is unavailable: ${status.available ? '' : status.reason}`, isError: true });
  });

  it('rejects bad arguments', async () => {
    expect(await bashTool().run({ command: 42 }, { principal })).toMatchObject({ isError: true, output: expect.stringMatching(/invalid arguments/) });
  });

  it('creates a fresh session folder for a new session id', async () => {
    await mkdir(sandboxRoot, { recursive: true });
    expect((await run('ls -A | wc -l', { sessionId: 'fresh-session' })).output).toBe('0\n');
  });

  // A service that runs as an ordinary user gets the same sandbox (unprivileged user namespaces).
  const asRoot = process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0;
  it.runIf(asRoot)('runs the same bubblewrap arguments for a non-root service user (nobody)', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'pilothouse-nobody-'));
    await chown(home, 65534, 65534);
    const plan = {
      system: readSystemLayout(),
      binaries: [],
      home,
      disableUserNamespaces: true,
      proc: 'fresh' as const,
      forwarder: { node: process.execPath, script: '/nowhere' },
    };
    // The seccomp filter on descriptor 3, as the sandbox hands it over (from a file here: spawnSync has no extra pipes).
    const filterFile = path.join(home, '.filter');
    writeFileSync(filterFile, sandboxSeccompFilter());
    const filter = openSync(filterFile, 'r');
    const result = spawnSync(
      'setpriv',
      ['--reuid=65534', '--regid=65534', '--clear-groups', 'bwrap', ...bubblewrapArguments(plan, 'id -u; echo mine > note; cat note')],
      {
        env: sandboxEnvironment({}),
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe', filter],
      },
    );
    closeSync(filter);
    await rm(home, { recursive: true, force: true });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('65534\nmine\n');
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { waitFor as pollUntil } from '../../../test/helpers/cluster.js';
import { InMemoryToolRegistry } from '../../tools/registry.js';
import type { Tool } from '../../tools/types.js';
import { McpClientManager, type McpClientManagerOptions } from './client-manager.js';
import { ToolNotFoundError } from './errors.js';
import { crashServer, everythingServer, kubernetesMcpServerPath } from './test-servers.js';

const principal = { username: 'tester', role: 'admin', roles: [] } as const;
const managers: McpClientManager[] = [];

function startManager(options: Partial<McpClientManagerOptions> = {}): { manager: McpClientManager; registry: InMemoryToolRegistry } {
  const registry = new InMemoryToolRegistry();
  const manager = new McpClientManager({ registry, logger: pino({ level: 'silent' }), clientVersion: '0.0.0-test', restartDelayMs: 200, ...options });
  managers.push(manager);
  return { manager, registry };
}

const waitFor = (check: () => boolean, timeoutMs = 15_000): Promise<void> => pollUntil(check, timeoutMs, 50);

const phaseOf = (manager: McpClientManager, name: string): string | undefined => manager.get(name)?.status.phase;

afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.close()));
});

describe('McpClientManager with server-everything', () => {
  it('discovers the tools and registers them as type mcp tagged with the server', async () => {
    const { manager, registry } = startManager({ readonlyTools: ['echo'] });
    await manager.apply(everythingServer());
    await waitFor(() => phaseOf(manager, 'everything') === 'connected');
    const status = manager.get('everything')!.status;
    expect(status.tools).toEqual(expect.arrayContaining(['echo', 'get-sum']));
    expect(status.lastConnected).toMatch(/Z$/);
    const echo = registry.get('echo')!.definition;
    expect(echo).toMatchObject({ type: 'mcp', server: 'everything', readOnly: true, destructive: false });
    expect(echo.inputSchema).toMatchObject({ type: 'object', properties: { message: expect.any(Object) } });
    expect(registry.get('get-sum')!.definition).toMatchObject({ readOnly: false });
  });

  it('calls tools and returns the text parts', async () => {
    const { manager, registry } = startManager();
    await manager.apply(everythingServer());
    await waitFor(() => phaseOf(manager, 'everything') === 'connected');
    const echo = registry.get('echo') as Tool;
    expect(echo.commandLine({ message: 'hi' })).toBe('mcp everything echo {"message":"hi"}');
    expect(await echo.run({ message: 'hello there' }, { principal })).toMatchObject({ output: 'Echo: hello there', isError: false });
    expect(await manager.call('get-sum', { a: 2, b: 40 })).toMatchObject({ output: expect.stringContaining('42'), isError: false });
  });

  it('turns bad arguments and unknown tools into isError results or tool-not-found', async () => {
    const { manager, registry } = startManager();
    await manager.apply(everythingServer());
    await waitFor(() => phaseOf(manager, 'everything') === 'connected');
    const bad = await registry.get('get-sum')!.run({ a: 'x' }, { principal });
    expect(bad.isError).toBe(true);
    await expect(manager.call('no-such-tool', {})).rejects.toBeInstanceOf(ToolNotFoundError);
    await expect(manager.call('no-such-tool', {})).rejects.toThrow(/no-such-tool/);
  });

  it('passes the configured env over a minimal environment', async () => {
    process.env.PILOTHOUSE_TEST_SECRET = 'must-not-leak';
    const { manager } = startManager();
    await manager.apply(everythingServer('everything', { env: { MCP_TEST_MARKER: 'marker-42' } }));
    await waitFor(() => phaseOf(manager, 'everything') === 'connected');
    const result = await manager.call('get-env', {});
    expect(result.output).toContain('marker-42');
    expect(result.output).toContain('PATH');
    expect(result.output).not.toContain('must-not-leak');
    delete process.env.PILOTHOUSE_TEST_SECRET;
  });

  it('prefixes tool names that clash with built-ins or other servers', async () => {
    const { manager, registry } = startManager();
    registry.register({
      definition: {
        name: 'get-sum',
        description: 'a built-in of the same name',
        inputSchema: { type: 'object' },
        type: 'bash',
        readOnly: true,
        destructive: false,
      },
      commandLine: () => 'get-sum',
      run: async () => ({ output: 'built-in', isError: false }),
    });
    await manager.apply(everythingServer('first'));
    await waitFor(() => phaseOf(manager, 'first') === 'connected');
    await manager.apply(everythingServer('second'));
    await waitFor(() => phaseOf(manager, 'second') === 'connected');
    expect(registry.get('echo')!.definition.server).toBe('first');
    expect(registry.get('get-sum')!.definition.type).toBe('bash');
    expect(registry.get('first__get-sum')!.definition).toMatchObject({ server: 'first', type: 'mcp' });
    expect(registry.get('second__echo')!.definition).toMatchObject({ server: 'second', type: 'mcp' });
    expect(manager.resolve('second__echo')).toEqual({ server: 'second', tool: 'echo' });
    expect((await manager.call('second__echo', { message: 'x' })).output).toBe('Echo: x');
  });

  it('disables, enables and removes a server, withdrawing its tools', async () => {
    const { manager, registry } = startManager();
    await manager.apply(everythingServer());
    await waitFor(() => phaseOf(manager, 'everything') === 'connected');
    await manager.apply(everythingServer('everything', { enabled: false }));
    expect(phaseOf(manager, 'everything')).toBe('disabled');
    expect(registry.get('echo')).toBeUndefined();
    await manager.apply(everythingServer());
    await waitFor(() => phaseOf(manager, 'everything') === 'connected');
    expect(registry.get('echo')).toBeDefined();
    expect(await manager.remove('everything')).toBe(true);
    expect(manager.get('everything')).toBeUndefined();
    expect(registry.list()).toEqual([]);
  });

  it('refuses a name already used by the other source', async () => {
    const { manager } = startManager();
    await manager.apply(everythingServer('shared', { enabled: false }));
    await expect(manager.apply(everythingServer('shared', { source: 'cluster' }))).rejects.toThrow(/clashes/);
  });
});

describe('McpClientManager failures', () => {
  it('marks a crashed server failed with its stderr tail, withdraws its tools and restarts it', async () => {
    const { manager, registry } = startManager();
    await manager.apply(crashServer());
    await waitFor(() => phaseOf(manager, 'crashy') === 'connected');
    const firstPid = (await manager.call('pid', {})).output;
    const states: string[] = [];
    manager.onStatusChange(() => states.push(`${phaseOf(manager, 'crashy')}:${registry.get('pid') ? 'tools' : 'none'}`));
    await manager.call('crash', {});
    await waitFor(() => manager.get('crashy')?.status.restarts === 1 && phaseOf(manager, 'crashy') === 'connected');
    expect(states).toContain('failed:none');
    expect((await manager.call('pid', {})).output).not.toBe(firstPid);
  });

  // Real child processes started several times: a loaded machine needs more than the default 5 s.
  it('backs off exponentially between restarts of a server that keeps failing', async () => {
    const { manager } = startManager({ restartDelayMs: 100 });
    await manager.apply({
      name: 'kube',
      command: kubernetesMcpServerPath,
      args: ['--kubeconfig', '/nonexistent/kubeconfig'],
      enabled: true,
      env: {},
      source: 'config',
    });
    await waitFor(() => (manager.get('kube')?.status.restarts ?? 0) >= 3);
    const status = manager.get('kube')!.status;
    expect(status.message).toContain('failed to load kubeconfig');
    await waitFor(() => phaseOf(manager, 'kube') === 'failed');
    expect(manager.get('kube')!.status.message).toMatch(/restarting in (0\.8|1\.6|3\.2|6\.4|12\.8)s/);
  }, 30_000);

  it('fails a server that never answers initialize within the timeout', async () => {
    const { manager } = startManager({ initializeTimeoutMs: 300, restartDelayMs: 60_000 });
    await manager.apply({
      name: 'mute',
      command: process.execPath,
      args: ['-e', 'process.stderr.write("mute server\\n"); setInterval(() => {}, 1000)'],
      enabled: true,
      env: {},
      source: 'config',
    });
    await waitFor(() => phaseOf(manager, 'mute') === 'failed');
    expect(manager.get('mute')!.status.message).toMatch(/timed out[\s\S]*mute server/i);
  });

  it('turns a call timeout into an isError result', async () => {
    const { manager } = startManager({ callTimeoutMs: 200 });
    await manager.apply(crashServer());
    await waitFor(() => phaseOf(manager, 'crashy') === 'connected');
    const result = await manager.call('slow', { ms: 2_000 });
    expect(result).toMatchObject({ isError: true, output: expect.stringMatching(/timed out/i) });
  });
});

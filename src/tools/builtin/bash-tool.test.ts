import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findBinary } from '../binaries.js';
import type { ToolContext } from '../types.js';
import { createBashTool, type BashToolOptions } from './bash-tool.js';

const principal = { username: 'tester', role: 'admin', roles: [] } as const;
let sandboxRoot: string;

beforeEach(async () => {
  sandboxRoot = await mkdtemp(path.join(tmpdir(), 'pilothouse-bash-'));
});
afterEach(async () => {
  await rm(sandboxRoot, { recursive: true, force: true });
});

const bashTool = (overrides: Partial<BashToolOptions> = {}) =>
  createBashTool({
    enabled: true,
    sandboxRoot,
    kubectlPath: findBinary('kubectl'),
    outputLimit: 64 * 1024,
    timeoutMs: 10_000,
    ...overrides,
  });
const run = (command: string, context: Partial<ToolContext> = {}, overrides: Partial<BashToolOptions> = {}) =>
  bashTool(overrides).run({ command }, { principal, sessionId: 'session-1', ...context });

describe('bash tool', () => {
  it('runs a shell line with pipes', async () => {
    expect(await run('printf "b\\na\\n" | sort')).toEqual({ output: 'a\nb\n', isError: false, truncated: false, exitCode: 0 });
    expect(bashTool().commandLine({ command: 'ls | wc -l' })).toBe('ls | wc -l');
    expect(bashTool().definition).toMatchObject({ name: 'bash', type: 'bash', readOnly: false, destructive: true });
  });

  it('works in a private per-session folder that is also HOME', async () => {
    const result = await run('pwd; echo "$HOME"');
    const sandbox = path.join(sandboxRoot, 'session-1');
    expect(result.output).toBe(`${sandbox}\n${sandbox}\n`);
    expect((await stat(sandbox)).mode & 0o777).toBe(0o700);
    expect((await run('pwd', { sessionId: undefined })).output.trim()).toBe(path.join(sandboxRoot, 'default'));
  });

  it('keeps hostile session ids inside the sandbox root', async () => {
    const result = await run('pwd', { sessionId: '../../etc' });
    expect(path.dirname(result.output.trim())).toBe(sandboxRoot);
  });

  it('does not pass the service environment on', async () => {
    process.env.PILOTHOUSE_TEST_SECRET = 'very-secret-value';
    try {
      const cluster = { kubeconfigPath: '/tmp/pilothouse-test-kubeconfig', refusals: () => [], close: async () => undefined };
      const result = await run('echo "[$PILOTHOUSE_TEST_SECRET]"; env', { cluster });
      expect(result.output).toContain('[]');
      expect(result.output).not.toContain('very-secret-value');
      expect(result.output).toContain('KUBECONFIG=/tmp/pilothouse-test-kubeconfig');
      expect((await run('echo "[$KUBECONFIG]"')).output).toBe('[]\n');
    } finally {
      delete process.env.PILOTHOUSE_TEST_SECRET;
    }
  });

  it('finds kubectl on PATH', async () => {
    const result = await run('command -v kubectl');
    expect(result.output.trim()).toBe(findBinary('kubectl'));
  });

  it('kills the command and its children on timeout', async () => {
    const started = Date.now();
    const result = await run('sleep 20 & sleep 20; echo never', {}, { timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result).toMatchObject({ isError: true });
    expect(result.output).toContain('[timed out after 300 ms]');
    expect(result.output).not.toContain('never');
  });

  it('stops when the signal aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const result = await run('sleep 20', { signal: controller.signal });
    expect(result).toMatchObject({ isError: true, output: expect.stringContaining('[cancelled]') });
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

  it('refuses to run when disabled or while impersonating', async () => {
    expect(await run('echo hi', {}, { enabled: false })).toEqual({ output: 'bash tool is disabled (tools.bash.enabled)', isError: true });
    expect(await run('echo hi', { impersonate: 'system:serviceaccount:x:viewer' })).toMatchObject({ isError: true });
  });

  it('rejects bad arguments', async () => {
    expect(await bashTool().run({ command: 42 }, { principal })).toMatchObject({ isError: true, output: expect.stringMatching(/invalid arguments/) });
  });
});

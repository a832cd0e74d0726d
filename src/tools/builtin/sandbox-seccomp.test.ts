import { realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOptionalBinary } from '../binaries.js';
import { createBashSandbox } from './bash-sandbox-setup.js';
import { sandboxSeccompFilter } from './sandbox-seccomp.js';

// Real bubblewrap with the filter the sandbox hands it: calls RuntimeDefault refuses fail inside with
// EPERM (each of them works in the same sandbox without the filter), ordinary shell work still runs.
const kubectlPath = realpathSync(findOptionalBinary('kubectl') ?? '/usr/bin/kubectl');
const sandbox = createBashSandbox({ kubectlPath });
let home: string;

beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'pilothouse-seccomp-'));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

const run = async (command: string): Promise<{ output: string; isError: boolean }> => sandbox.run({ command, home, timeoutMs: 20_000, outputLimit: 64 * 1024 });

describe('the seccomp filter of the bash sandbox', () => {
  it('refuses new namespaces: unshare -U fails with EPERM (the filter, not the user namespace limit)', async () => {
    const result = await run('unshare -U true; echo "status $?"');
    expect(result.output).toMatch(/unshare failed: Operation not permitted/);
    expect(result.output).toMatch(/status 1/);
    expect((await run('unshare -n true 2>&1; echo "status $?"')).output).toMatch(/Operation not permitted\nstatus 1/);
  });

  it('refuses the kernel keyring, personality changes, ptrace and mounts', async () => {
    // keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 0): allowed to any process without a filter.
    const keyring = process.arch === 'arm64' ? 219 : 250;
    const keyctl = await run(`perl -e 'my $r = syscall(${keyring}, 0, -3, 0); print "keyctl $r $!\\n"'`);
    expect(keyctl.output).toMatch(/keyctl -1 Operation not permitted/);
    const personality = await run('setarch "$(uname -m)" -R true 2>&1; echo "status $?"');
    expect(personality.output).toMatch(/Operation not permitted\nstatus 1/);
    expect((await run('setarch "$(uname -m)" true; echo "status $?"')).output).toBe('status 0\n');
    const mount = await run('mount -t tmpfs none /tmp 2>&1; echo "status $?"');
    expect(mount.output).not.toMatch(/status 0/);
    const strace = await run('command -v strace >/dev/null || exit 0; strace true 2>&1 | head -1');
    expect(strace.output).not.toMatch(/execve\(/);
  });

  it('leaves ordinary work alone: pipes, background jobs, subshells, files in HOME and kubectl', async () => {
    const result = await run('echo hello | tr a-z A-Z; (sleep 0.1 & wait); echo done > note; cat note; ls /usr | grep -c bin; kubectl version --client');
    expect(result.isError).toBe(false);
    expect(result.output).toMatch(/^HELLO\ndone\n\d+\nClient Version: v\d+\.\d+/);
  });

  it('is built for x86_64 and aarch64 only: another architecture leaves the tool off with the reason', () => {
    expect(sandboxSeccompFilter('x64').length % 8).toBe(0);
    expect(sandboxSeccompFilter('arm64').length % 8).toBe(0);
    expect(sandboxSeccompFilter('arm64')).not.toEqual(sandboxSeccompFilter('x64'));
    expect(() => sandboxSeccompFilter('riscv64')).toThrow(/no seccomp filter for the riscv64 architecture/);
  });
});

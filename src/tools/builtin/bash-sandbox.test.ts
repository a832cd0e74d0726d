import { realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOptionalBinary } from '../binaries.js';
import { bubblewrapArguments, sandboxEnvironment, type SandboxPlan } from './bash-sandbox-arguments.js';
import { chooseSandboxVariant, type ProbeAttempt, type SandboxVariant } from './bash-sandbox.js';
import { createBashSandbox } from './bash-sandbox-setup.js';
import { runProcess } from './process-runner.js';
import { readSystemLayout } from './sandbox-layout.js';
import { sandboxSeccompFilter } from './sandbox-seccomp.js';

// The start probe's choice of /proc. This host can mount a fresh proc in the sandbox; a pod under runc
// without `procMount: Unmasked` cannot (bubblewrap's message below, as seen on the real node with
// containerd 1.6): there the probe's answer for the fresh variant is injected, everything else is real bwrap.
const refusedInPod = "bwrap: Can't mount proc on /newroot/proc: Operation not permitted";
const kubectlPath = realpathSync(findOptionalBinary('kubectl') ?? '/usr/bin/kubectl');
let home: string;

beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'pilothouse-proc-'));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

/** The plan of a sandbox without a proxy, kubectl on PATH, with the given variant. */
const planOf = (variant: SandboxVariant): SandboxPlan => ({
  system: readSystemLayout(),
  binaries: [{ name: 'kubectl', path: kubectlPath }],
  home,
  forwarder: { node: process.execPath, script: '/nowhere' },
  ...variant,
});

/** Runs `bash -c command` in real bubblewrap with the variant. */
const runIn = (variant: SandboxVariant, command: string) => {
  const plan = planOf(variant);
  return runProcess({
    file: 'bwrap',
    args: bubblewrapArguments(plan, command),
    environment: sandboxEnvironment(plan),
    inputs: [sandboxSeccompFilter()],
    timeoutMs: 20_000,
    outputLimit: 64 * 1024,
  });
};

/** Real bwrap for each variant, except that the answers in `injected` stand for the runtime's. */
function recordingAttempt(injected: (variant: SandboxVariant) => string | undefined): { attempt: ProbeAttempt; tried: SandboxVariant[] } {
  const tried: SandboxVariant[] = [];
  const attempt: ProbeAttempt = async (variant) => {
    tried.push(variant);
    const refusal = injected(variant);
    if (refusal !== undefined) return { ok: false, reason: refusal };
    const result = await runIn(variant, 'true');
    return result.isError ? { ok: false, reason: result.output } : { ok: true };
  };
  return { attempt, tried };
}

describe('the sandbox /proc chosen by the start probe', () => {
  it('is a fresh proc of its own PID namespace where proc can be mounted (here): health says fresh, the shell sees only its own processes', async () => {
    const sandbox = createBashSandbox({ kubectlPath });
    expect(await sandbox.status()).toEqual({ available: true, proc: 'fresh' });
    const result = await sandbox.run({
      command: 'ls /proc | grep -E "^[0-9]+$" | sort -n | tr "\\n" " "; echo; cat /proc/1/cmdline | tr "\\0" " "',
      home,
      timeoutMs: 20_000,
      outputLimit: 4096,
    });
    expect(result.isError).toBe(false);
    const [listed = '', first] = result.output.split('\n');
    // Numbered from 1 in a namespace of its own: bwrap, the shell and this command's pipeline, no host process.
    const pids = listed.trim().split(' ').map(Number);
    expect(pids.length).toBeGreaterThan(1);
    expect(pids).toEqual(pids.map((_pid, index) => index + 1));
    expect(first).toMatch(/^\S*bwrap /);
  });

  it('falls back to an empty /proc only when proc cannot be mounted; kubectl and bash run there and see no processes', async () => {
    const { attempt, tried } = recordingAttempt((variant) => (variant.proc === 'fresh' ? refusedInPod : undefined));
    const chosen = await chooseSandboxVariant(attempt);
    expect(chosen).toEqual({ variant: { disableUserNamespaces: true, proc: 'empty' } });
    expect(tried).toEqual([
      { disableUserNamespaces: true, proc: 'fresh' },
      { disableUserNamespaces: true, proc: 'empty' },
    ]);
    const result = await runIn({ disableUserNamespaces: true, proc: 'empty' }, 'kubectl version --client; ls /proc | wc -l');
    expect(result.isError).toBe(false);
    expect(result.output).toMatch(/^Client Version: v\d+\.\d+/m);
    expect(result.output.trim().split('\n').at(-1)).toBe('0');
  });

  it('does not work around any other failure with an empty /proc: the reason is reported', async () => {
    const noNamespaces = 'bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces.';
    const { attempt, tried } = recordingAttempt(() => noNamespaces);
    expect(await chooseSandboxVariant(attempt)).toEqual({ reason: noNamespaces });
    expect(tried.every((variant) => variant.proc === 'fresh')).toBe(true);
    expect(tried.map((variant) => variant.disableUserNamespaces)).toEqual([true, false]);
  });

  it('keeps the fresh /proc when the first variant fails for another reason and the next one runs', async () => {
    const { attempt, tried } = recordingAttempt((variant) => (variant.disableUserNamespaces ? 'bwrap: Unknown option --disable-userns' : undefined));
    expect(await chooseSandboxVariant(attempt)).toEqual({ variant: { disableUserNamespaces: false, proc: 'fresh' } });
    expect(tried).toEqual([
      { disableUserNamespaces: true, proc: 'fresh' },
      { disableUserNamespaces: false, proc: 'fresh' },
    ]);
  });
});

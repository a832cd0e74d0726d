import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BubblewrapSandbox } from '../tools/builtin/bash-sandbox.js';
import { bashSandboxCheck } from './health-service.js';

describe('bash sandbox health check', () => {
  it('says disabled without probing when the tool is off', async () => {
    const neverProbed = { status: async () => expect.unreachable('probed a disabled sandbox') };
    expect(await bashSandboxCheck(false, neverProbed)()).toEqual({ status: 'disabled', reason: 'tools.bash.enabled is false' });
  });

  it('reports the real probe: available here, unavailable with the reason when bubblewrap cannot start', async () => {
    expect(await bashSandboxCheck(true, new BubblewrapSandbox({ binaries: [] }))()).toEqual({ status: 'available', proc: 'fresh' });
    const broken = new BubblewrapSandbox({ bwrapPath: path.join('/nonexistent', 'bwrap'), binaries: [] });
    expect(await bashSandboxCheck(true, broken)()).toEqual({
      status: 'unavailable',
      reason: 'bubblewrap cannot run here (/nonexistent/bwrap not found: install the Debian package bubblewrap)',
    });
  });
});

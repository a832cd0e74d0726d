import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rootDirectory } from '../helpers/paths.js';

// scripts/kind-demo.sh cannot run here (no Docker or Podman); it is kept shellcheck-clean instead.
const shellcheck = spawnSync('shellcheck', ['--version']).status === 0;

describe('scripts/kind-demo.sh', () => {
  it.runIf(shellcheck)('passes shellcheck', () => {
    const result = spawnSync('shellcheck', ['--severity=style', join(rootDirectory, 'scripts/kind-demo.sh')], { encoding: 'utf8' });
    expect(result.status, result.stdout + result.stderr).toBe(0);
  });

  it('refuses to start without kind on PATH', () => {
    const result = spawnSync('/bin/bash', [join(rootDirectory, 'scripts/kind-demo.sh')], { encoding: 'utf8', env: { PATH: '/usr/bin:/bin' } });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('kind-demo: kind is not on PATH');
  });
});

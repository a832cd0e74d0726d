import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runHelm } from '../../helm/helm-runner.js';
import { runKubectl } from './resources.js';

const directory = mkdtempSync(path.join(tmpdir(), 'pilothouse-kubectl-'));
const kubeconfigPath = path.join(directory, 'secret-dir', 'kubeconfig');
/** A stand-in binary that fails like kubectl/helm do when the kubeconfig is bad, echoing the token. */
const failing = path.join(directory, 'fails.sh');
writeFileSync(failing, `#!/bin/sh\necho "error: loading config file \\"${kubeconfigPath}\\": token=abc123 Bearer abc123 is invalid" >&2\nexit 1\n`);
chmodSync(failing, 0o755);

afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('kubectl and helm failures in responses', () => {
  it('never carry the kubeconfig path or a token', async () => {
    const error = await runKubectl({ kubectlPath: failing, kubeconfigPath }, ['get', 'pods']).catch((caught: unknown) => caught);
    const text = JSON.stringify({ message: (error as Error).message, details: (error as { details: unknown }).details });
    expect(text).toContain('loading config file');
    expect(text).not.toContain(directory);
    expect(text).not.toContain('abc123');
  });

  it('never carry the binary path when it cannot start', async () => {
    const missing = path.join(directory, 'no-such-kubectl');
    const error = await runKubectl({ kubectlPath: missing, kubeconfigPath }, ['get', 'pods']).catch((caught: unknown) => caught);
    expect(JSON.stringify((error as { details: unknown }).details)).not.toContain(directory);
  });

  it('helm: same rule', async () => {
    const invocation = { helmPath: failing, homeDirectory: path.join(directory, 'helm'), kubeconfigPath, timeoutMs: 10_000 };
    const error = await runHelm(invocation, ['list']).catch((caught: unknown) => caught);
    const text = JSON.stringify({ message: (error as Error).message, details: (error as { details: unknown }).details });
    expect(text).not.toContain(directory);
    expect(text).not.toContain('abc123');
  });

  it('helm exiting before it reads its values (EPIPE) is an error result, not a crash', async () => {
    const invocation = { helmPath: failing, homeDirectory: path.join(directory, 'helm'), timeoutMs: 10_000 };
    const values = 'key: value\n'.repeat(200_000);
    await expect(runHelm(invocation, ['install', 'x', 'chart', '--values', '-'], values)).rejects.toHaveProperty('code');
  });
});

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { clusterKubeconfig, uniqueName } from '../helpers/cluster.js';
import { rootDirectory } from '../helpers/paths.js';
import { tryKubectl } from '../helpers/kubectl.js';

const program = join(rootDirectory, 'bin', 'pilothouse');

function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [program, ...args], { encoding: 'utf8', env: { ...process.env, HOME: mkdtempSync(join(tmpdir(), 'ph-home-')) } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the pilothouse command', () => {
  it('answers unknown flags and bad values with one line and exit code 2', () => {
    for (const args of [['--bogus'], ['--port', 'abc'], ['--auth-mode', 'kerberos'], ['frobnicate']]) {
      const result = run(args);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(result.stderr).toMatch(/^pilothouse: /);
    }
  });

  it('stops at start on a bad config file with one line naming the key', () => {
    const directory = mkdtempSync(join(tmpdir(), 'ph-cli-'));
    const configPath = join(directory, 'config.yaml');
    writeFileSync(configPath, 'authorization:\n  jwt:\n    token_duration: soon\n');
    const result = run(['--config', configPath]);
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toMatch(/authorization\.jwt\.token_duration: invalid duration "soon"/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('prints its version and usage', () => {
    expect(run(['--version']).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(run(['--help']).stdout).toContain('-web, --web');
  });

  it('serves with -web, answers the health command, warns loudly under --no-auth and stops on SIGTERM', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'ph-cli-'));
    const namespace = uniqueName('ph-cli');
    writeFileSync(join(directory, 'config.yaml'), `kubernetes:\n  namespace: ${namespace}\n`);
    const child = spawn(
      process.execPath,
      [program, '-web', '--no-auth', '--port', '0', '--kubeconfig', clusterKubeconfig(), '--config', join(directory, 'config.yaml'), '--data-dir', join(directory, 'data'), '--log-level', 'warn'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
      createInterface({ input: child.stdout }).on('line', (line) => {
        const match = /listening on (http:\/\/\S+)/.exec(line);
        if (match?.[1]) resolve(match[1]);
      });
    });
    try {
      expect(stderr).toMatch(/WARNING: --no-auth/);
      const health = spawnSync(process.execPath, [program, 'health', '--url', url], { encoding: 'utf8' });
      expect(health.status).toBe(0);
      expect(JSON.parse(health.stdout)).toMatchObject({ status: 'healthy', kubernetes: 'connected' });
      const page = await fetch(url + '/');
      expect(page.headers.get('content-type')).toContain('text/html');
    } finally {
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      await tryKubectl(clusterKubeconfig(), ['delete', 'namespace', namespace, '--wait=false']);
    }
  });

  it('exits 1 from the health command when nothing answers', () => {
    const result = run(['health', '--url', 'http://127.0.0.1:9']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/health check failed/);
  });
});

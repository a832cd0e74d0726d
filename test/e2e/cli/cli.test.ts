import { spawn, spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { clusterKubeconfig, uniqueName } from '../../helpers/cluster.js';
import { rootDirectory } from '../../helpers/paths.js';
import { tryKubectl } from '../../helpers/kubectl.js';

const program = join(rootDirectory, 'bin', 'pilothouse');

function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  // The timeout turns a command that should have stopped at once but serves instead into a failure, not a hang.
  const result = spawnSync(process.execPath, [program, ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, HOME: mkdtempSync(join(tmpdir(), 'ph-home-')) },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface Serving {
  url: string;
  pid: number;
  stderr: () => string;
  /** SIGTERM, then the exit code (or the signal that ended it). */
  stop(): Promise<number | string | null>;
}

/** Starts `pilothouse` with `args` and the config file text; resolves once it prints where it listens. */
async function serve(args: string[], configText: string, environment: NodeJS.ProcessEnv = {}): Promise<Serving> {
  const directory = mkdtempSync(join(tmpdir(), 'ph-cli-'));
  writeFileSync(join(directory, 'config.yaml'), configText);
  const child = spawn(
    process.execPath,
    [program, ...args, '--port', '0', '--config', join(directory, 'config.yaml'), '--data-dir', join(directory, 'data'), '--log-level', 'warn'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, HOME: directory, ...environment },
    },
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
  const stop = (): Promise<number | string | null> => {
    const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
    child.kill('SIGTERM');
    return exited;
  };
  return { url, pid: child.pid ?? 0, stderr: () => stderr, stop };
}

/** A kubeconfig whose API server never answers: for start-up checks that must not touch the shared cluster. */
function unreachableKubeconfig(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'ph-kc-')), 'kubeconfig');
  writeFileSync(
    path,
    'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:9"}}]\nusers: [{name: u, user: {token: x}}]\ncontexts: [{name: c, context: {cluster: c, user: u}}]\ncurrent-context: c\n',
  );
  return path;
}

/** A `node` on PATH older than 24 (the machine's own), when there is one. */
function olderNode(): string | undefined {
  for (const directory of (process.env.PATH ?? '').split(delimiter).concat(['/usr/bin', '/usr/local/bin'])) {
    const candidate = join(directory, 'node');
    const version = spawnSync(candidate, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' });
    if (version.status === 0 && Number(version.stdout.trim()) < 24) return candidate;
  }
  return undefined;
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
      [
        program,
        '-web',
        '--no-auth',
        '--port',
        '0',
        '--kubeconfig',
        clusterKubeconfig(),
        '--config',
        join(directory, 'config.yaml'),
        '--data-dir',
        join(directory, 'data'),
        '--log-level',
        'warn',
      ],
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

  it('starts with an empty config file (or one with only comments): empty means defaults', async () => {
    for (const text of ['', '# nothing configured yet\n\n']) {
      const running = await serve(['--kubeconfig', unreachableKubeconfig(), '--admin-password', 'empty-config-pass'], text);
      expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await running.stop(), running.stderr()).toBe(0);
    }
  });

  it('takes the admin password from --admin-password-file and the signing key from signing_key_file, neither in its arguments or environment', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'ph-keys-'));
    const passwordFile = join(directory, 'admin-password');
    const keyFile = join(directory, 'jwt-secret');
    writeFileSync(passwordFile, 'file-admin-pass-7\n', { mode: 0o600 });
    writeFileSync(keyFile, 'k'.repeat(20) + 'key-from-a-mounted-secret', { mode: 0o600 });
    const running = await serve(
      ['--kubeconfig', unreachableKubeconfig(), '--admin-password-file', passwordFile],
      `authorization:\n  jwt:\n    signing_key_file: ${keyFile}\n`,
    );
    try {
      const login = async (password: string): Promise<Response> =>
        fetch(`${running.url}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password }),
        });
      expect((await login('wrong')).status).toBe(401);
      const answer = await login('file-admin-pass-7');
      expect(answer.status).toBe(200);
      const { token } = (await answer.json()) as { token: string };
      // The token is signed with the file's key (HS256 over header.payload).
      const [header, payload, signature] = token.split('.');
      expect(createHmac('sha256', readFileSync(keyFile, 'utf8')).update(`${header}.${payload}`).digest('base64url')).toBe(signature);
      for (const file of ['cmdline', 'environ']) {
        const text = readFileSync(`/proc/${running.pid}/${file}`, 'utf8');
        expect(text, file).not.toContain('file-admin-pass-7');
        expect(text, file).not.toContain('key-from-a-mounted-secret');
      }
    } finally {
      expect(await running.stop(), running.stderr()).toBe(0);
    }
    const fromEnvironment = await serve(['--kubeconfig', unreachableKubeconfig()], '', { PILOTHOUSE_ADMIN_PASSWORD: 'env-admin-pass-8' });
    try {
      const answer = await fetch(`${fromEnvironment.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'env-admin-pass-8' }),
      });
      expect(answer.status).toBe(200);
    } finally {
      expect(await fromEnvironment.stop(), fromEnvironment.stderr()).toBe(0);
    }
    const missing = run(['--admin-password-file', join(directory, 'missing')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim()).toMatch(/^pilothouse: --admin-password-file: cannot read .*missing \(ENOENT\)$/);
    expect(run(['--help']).stdout).toMatch(/--admin-password-file PATH[\s\S]*PILOTHOUSE_ADMIN_PASSWORD/);
  });

  it('is as loud about auth.mode none in the config file as about --no-auth, and stays on loopback', async () => {
    const namespace = uniqueName('ph-cli');
    const running = await serve(
      ['--kubeconfig', clusterKubeconfig()],
      `kubernetes:\n  namespace: ${namespace}\nauth:\n  mode: none\nserver:\n  host: 0.0.0.0\n`,
    );
    try {
      expect(running.stderr()).toMatch(/WARNING: --no-auth \(auth\.mode: none\): authentication is OFF/);
      expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const health = (await (await fetch(`${running.url}/api/health`)).json()) as { details?: Record<string, unknown> };
      expect(health.details?.auth).toMatchObject({ status: 'disabled' });
    } finally {
      expect(await running.stop()).toBe(0);
      await tryKubectl(clusterKubeconfig(), ['delete', 'namespace', namespace, '--wait=false']);
    }
  });

  it('refuses a non-loopback --host without authentication unless --no-auth-allow-remote is given too', async () => {
    const noAuthConfig = join(mkdtempSync(join(tmpdir(), 'ph-cli-')), 'config.yaml');
    writeFileSync(noAuthConfig, 'auth:\n  mode: none\n');
    for (const args of [
      ['--no-auth', '--host', '0.0.0.0'],
      ['--config', noAuthConfig, '--host', '0.0.0.0'],
      ['--no-auth', '--host', '::'],
    ]) {
      const result = run(args);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(result.stderr).toMatch(/^pilothouse: --host .*--no-auth-allow-remote/);
    }
    const remote = await serve(['--no-auth', '--host', '0.0.0.0', '--no-auth-allow-remote', '--kubeconfig', unreachableKubeconfig()], '');
    try {
      expect(remote.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
      expect(remote.stderr()).toMatch(/WARNING: --no-auth/);
    } finally {
      expect(await remote.stop()).toBe(0);
    }
  });

  const oldNode = olderNode();
  it.skipIf(!oldNode)('runs with the Node that make bootstrapped when an older node comes first on PATH, or says in one line what it needs', () => {
    const path = `${dirname(oldNode!)}${delimiter}${process.env.PATH ?? ''}`;
    const direct = spawnSync(program, ['--version'], { encoding: 'utf8', env: { ...process.env, PATH: path } });
    // make bootstraps Node 24 into .tools/node only on a machine whose own node is older.
    const bootstrapped = join(rootDirectory, '.tools', 'node', 'node_modules', `node-${process.platform}-${process.arch}`, 'bin', 'node');
    if (existsSync(bootstrapped)) {
      expect(direct.stderr).toBe('');
      expect(direct.status).toBe(0);
      expect(direct.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    } else {
      expect(direct.status).toBe(1);
      expect(direct.stderr).toMatch(/^pilothouse: needs Node\.js 24 or newer.*make node[^\n]*\n$/);
    }
    // A copy of the script without .tools beside it: one line naming the Node it needs and `make node`.
    const elsewhere = join(mkdtempSync(join(tmpdir(), 'ph-bin-')), 'bin');
    mkdirSync(elsewhere);
    copyFileSync(program, join(elsewhere, 'pilothouse'));
    const alone = spawnSync(oldNode!, [join(elsewhere, 'pilothouse'), '--version'], { encoding: 'utf8' });
    expect(alone.status).toBe(1);
    expect(alone.stderr.trim().split('\n')).toHaveLength(1);
    expect(alone.stderr).toMatch(/needs Node\.js 24 or newer.*make node/);
  });
});

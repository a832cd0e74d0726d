import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { AppError } from '../errors.js';
import { clusterIdentityArgs } from '../kube/objects/resources.js';
import { scrubToolMessage } from '../redact.js';

/** How to run helm for one caller: binary, state directory, cluster connection and identity. */
export interface HelmInvocation {
  helmPath: string;
  /** Root of Helm's cache/config/data (inside the data dir, never the user's home). */
  homeDirectory: string;
  kubeconfigPath?: string;
  context?: string;
  /** The impersonated cluster user (`--kube-as-user`). */
  impersonate?: string;
  /** Its impersonated groups (`--kube-as-group`). */
  impersonateGroups?: readonly string[];
  timeoutMs: number;
}

/** Environment pointing every piece of Helm state into `homeDirectory`. */
export function helmEnvironment(homeDirectory: string): NodeJS.ProcessEnv {
  const directories = { HELM_CACHE_HOME: 'cache', HELM_CONFIG_HOME: 'config', HELM_DATA_HOME: 'data' };
  // Only what helm needs: never the service's own secrets (JWT key, LLM key, LDAP password).
  const environment: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => passedToHelm.has(name) || /^(HTTPS?|NO|ALL)_PROXY$/i.test(name)),
  );
  for (const [name, folder] of Object.entries(directories)) {
    const directory = path.join(homeDirectory, folder);
    mkdirSync(directory, { recursive: true });
    environment[name] = directory;
  }
  return environment;
}

/** Environment variables helm may see (paths, locale, in-cluster discovery, proxies). */
const passedToHelm = new Set([
  'PATH',
  'HOME',
  'TMPDIR',
  'LANG',
  'LC_ALL',
  'KUBECONFIG',
  'KUBERNETES_SERVICE_HOST',
  'KUBERNETES_SERVICE_PORT',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
]);

/** The cluster arguments every release command carries. */
export function helmClusterArgs(invocation: HelmInvocation): string[] {
  return clusterIdentityArgs(invocation, { context: '--kube-context', user: '--kube-as-user', group: '--kube-as-group' });
}

/** The answer of every helm route when the helm binary cannot be run (503, said by /api/health too). */
export function helmMissing(): AppError {
  return new AppError('UNAVAILABLE', 'helm is not installed (set `tools.helm` or install helm)', { reason: 'helm_not_installed' });
}

/** helm's messages about the caller's chart reference, values or release name: the caller's input (400). */
const callerInput =
  /cannot re-use a name|already exists|invalid|not a valid|failed to fetch|could not find|unable to|required|parse|unknown flag|is not|no revision|non-absolute URLs|repo_name\/path_to_chart/i;

/** Maps helm's stderr to a contract error, keeping helm's message in details. */
export function helmFailure(stderr: string): AppError {
  const message = stderr.replace(/^Error:\s*/m, '').trim() || 'helm failed';
  const details = { message };
  if (/forbidden/i.test(message)) return new AppError('FORBIDDEN', message, details);
  if (/not found|no such|doesn't exist|does not exist|no repositories|has no \d+ version|has no deployed releases/i.test(message))
    return new AppError('NOT_FOUND', message, details);
  if (callerInput.test(message)) {
    return new AppError('VALIDATION_ERROR', message, details);
  }
  return new AppError('K8S_ERROR', `helm failed: ${message}`, details);
}

/** Runs helm with argv (no shell); `stdin` feeds `--values -`. Resolves with stdout. */
export function runHelm(invocation: HelmInvocation, args: string[], stdin?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(invocation.helmPath, args, {
      env: helmEnvironment(invocation.homeDirectory),
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: invocation.timeoutMs,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    const privatePaths = [invocation.kubeconfigPath, invocation.homeDirectory, invocation.helmPath];
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'EACCES') return reject(helmMissing());
      reject(new AppError('K8S_ERROR', 'cannot run helm', { reason: scrubToolMessage(error.message, privatePaths) }));
    });
    child.on('close', (code) => {
      if (code === 0) return resolve(Buffer.concat(stdout).toString('utf8'));
      reject(helmFailure(scrubToolMessage(Buffer.concat(stderr).toString('utf8'), privatePaths)));
    });
    // helm may exit before reading its stdin (EPIPE): the exit code and stderr tell the story, never a crash.
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin ?? '');
  });
}

/** Runs helm and parses its `-o json` output. */
export async function runHelmJson<T>(invocation: HelmInvocation, args: string[], stdin?: string): Promise<T> {
  // Flags go before a `--` (after it helm reads everything as arguments).
  const end = args.indexOf('--');
  const withOutput = end === -1 ? [...args, '-o', 'json'] : [...args.slice(0, end), '-o', 'json', ...args.slice(end)];
  const output = await runHelm(invocation, withOutput, stdin);
  try {
    return JSON.parse(output) as T;
  } catch {
    throw new AppError('K8S_ERROR', 'helm printed output that is not JSON', { output: output.slice(0, 500) });
  }
}

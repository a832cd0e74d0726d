import { spawn } from 'node:child_process';
import { toolPath } from './paths.js';

export interface KubectlResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** Runs the real kubectl against the test cluster as its admin; rejects on a non-zero exit. */
export async function runKubectl(kubeconfig: string, args: string[], input?: string): Promise<string> {
  const result = await tryKubectl(kubeconfig, args, input);
  if (result.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

/** Runs kubectl and returns its output and exit code whatever happens. */
export function tryKubectl(kubeconfig: string, args: string[], input?: string): Promise<KubectlResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(toolPath('kubectl'), ['--kubeconfig', kubeconfig, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, stderr, code: code ?? -1 }));
    // kubectl may exit before reading its input (a refused flag, a missing file): its exit code tells, not EPIPE.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ?? '');
  });
}

/** `kubectl apply -f -` of a YAML document. */
export function applyYaml(kubeconfig: string, yamlText: string, namespace?: string): Promise<string> {
  return runKubectl(kubeconfig, ['apply', '-f', '-', ...(namespace ? ['-n', namespace] : [])], yamlText);
}

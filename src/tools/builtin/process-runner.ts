import { spawn } from 'node:child_process';
import { CappedOutput, joinOutput } from './capped-output.js';
import type { ToolResult } from '../types.js';

/** How to run a child process for a tool. */
export interface ProcessRequest {
  file: string;
  args: readonly string[];
  cwd?: string;
  environment: NodeJS.ProcessEnv;
  timeoutMs: number;
  outputLimit: number;
  signal?: AbortSignal;
}

/** Kills the child's whole process group (it runs detached), falling back to the child alone. */
function killTree(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

function describeEnd(code: number | null, reason: string | undefined): string {
  if (reason) return `\n[${reason}]`;
  return code === 0 ? '' : `\n[exit code ${code ?? 'unknown'}]`;
}

/**
 * Runs a program without a shell (argv as given), with a timeout, an output cap and cancellation;
 * the whole process group is killed on timeout or abort. Never throws: failures are error results.
 */
export function runProcess(request: ProcessRequest): Promise<ToolResult> {
  return new Promise((resolve) => {
    const stdout = new CappedOutput(request.outputLimit);
    const stderr = new CappedOutput(request.outputLimit);
    let reason: string | undefined;
    if (request.signal?.aborted) {
      resolve({ output: '[cancelled before start]', isError: true });
      return;
    }
    const child = spawn(request.file, request.args, {
      cwd: request.cwd,
      env: request.environment,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const stop = (why: string): void => {
      reason ??= why;
      killTree(child.pid);
    };
    const timer = setTimeout(() => stop(`timed out after ${request.timeoutMs} ms`), request.timeoutMs);
    const onAbort = (): void => stop('cancelled');
    request.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => stdout.append(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.append(chunk));
    child.on('error', (error) => {
      reason ??= `could not start ${request.file}: ${error.message}`;
    });
    // Background jobs that keep the pipes open are ended shortly after the main process exits.
    child.on('exit', () => setTimeout(() => killTree(child.pid), 500).unref());
    child.on('close', (code) => {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      const { text, truncated } = joinOutput(stdout, stderr, request.outputLimit);
      const isError = reason !== undefined || code !== 0;
      const result: ToolResult = { output: text + describeEnd(code, reason), isError, truncated };
      if (code !== null) result.exitCode = code;
      resolve(result);
    });
  });
}

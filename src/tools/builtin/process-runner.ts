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
  /**
   * Run in a session and process group of its own (default), so that a timeout, an abort and the end of
   * the main process kill every process it started. `false` for a program that starts no helpers of its
   * own (kubectl): on Linux a new session is a new scheduler autogroup, which made a short call start
   * measurably later on a busy machine (bench/proxy.bench.ts); only the child itself is killed then.
   */
  ownSession?: boolean;
  /** Data for the child on file descriptors 3, 4, …: each a pipe closed after its data (bubblewrap's `--seccomp 3`). */
  inputs?: readonly Buffer[];
}

/** Writes each input into its pipe and closes it; a child that exits before reading (EPIPE) is its own failure. */
function feedInputs(streams: readonly unknown[], inputs: readonly Buffer[]): void {
  inputs.forEach((data, index) => {
    const stream = streams[index + 3] as NodeJS.WritableStream & { on(event: 'error', listener: () => void): void };
    stream.on('error', () => undefined);
    stream.end(data);
  });
}

/** Sends SIGKILL to a pid (or a process group: negative); false when there is no such process. */
function kill(target: number): boolean {
  try {
    process.kill(target, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}

/** Kills the child's whole process group when it runs in a session of its own (detached), else (or failing that) the child alone. */
function killTree(pid: number | undefined, group: boolean): void {
  if (pid === undefined) return;
  if (group && kill(-pid)) return;
  kill(pid);
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
    const group = request.ownSession !== false;
    const child = spawn(request.file, request.args, {
      cwd: request.cwd,
      env: request.environment,
      stdio: ['ignore', 'pipe', 'pipe', ...(request.inputs ?? []).map(() => 'pipe' as const)],
      detached: group,
    });
    feedInputs(child.stdio, request.inputs ?? []);
    const stop = (why: string): void => {
      reason ??= why;
      // Without a group, only a child that has not exited yet (its pid is not reused before then).
      if (group || (child.exitCode === null && child.signalCode === null)) killTree(child.pid, group);
    };
    const timer = setTimeout(() => stop(`timed out after ${request.timeoutMs} ms`), request.timeoutMs);
    const onAbort = (): void => stop('cancelled');
    request.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout?.on('data', (chunk: Buffer) => stdout.append(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.append(chunk));
    child.on('error', (error) => {
      reason ??= `could not start ${request.file}: ${error.message}`;
    });
    // Background jobs that keep the pipes open are ended shortly after the main process exits (only a
    // group of its own: a pid alone may belong to another process once this one has exited).
    if (group) child.on('exit', () => setTimeout(() => killTree(child.pid, group), 500).unref());
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

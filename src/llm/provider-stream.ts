import { AttemptTimer } from './attempt-timer.js';
import { isRetryableFailure, toLlmError, type ProviderFailure } from './errors.js';
import { retryStream, type RetryPolicy } from './retry.js';
import type { LlmStreamEvent } from './types.js';

/** Handed to an adapter for one attempt: pass `signal` to the SDK, call `touch()` per raw chunk. */
export interface AttemptContext {
  signal: AbortSignal;
  touch(): void;
}

export interface ProviderRuntime {
  provider: string;
  secrets: readonly string[];
  policy: RetryPolicy;
  timeoutMs: number;
  describeError: (error: unknown) => ProviderFailure;
}

/** An attempt's error, already classified while its timer was known. */
class AttemptFailure extends Error {
  constructor(readonly failure: ProviderFailure) {
    super(failure.message);
  }
}

const abortedFailure: ProviderFailure = { message: 'request aborted', aborted: true };

function classify(error: unknown, timer: AttemptTimer, runtime: ProviderRuntime, signal?: AbortSignal): ProviderFailure {
  if (signal?.aborted) return abortedFailure;
  if (timer.timedOut) return { message: `no response within ${runtime.timeoutMs} ms`, timeout: true };
  return runtime.describeError(error);
}

async function* runAttempt(
  runtime: ProviderRuntime,
  open: (context: AttemptContext) => AsyncIterable<LlmStreamEvent>,
  signal?: AbortSignal,
): AsyncGenerator<LlmStreamEvent> {
  const timer = new AttemptTimer(runtime.timeoutMs, signal);
  try {
    if (signal?.aborted) throw new AttemptFailure(abortedFailure);
    for await (const event of open({ signal: timer.signal, touch: () => timer.touch() })) {
      // Some SDKs end a stream quietly when its signal aborts: never mistake that for a finished turn.
      if (timer.signal.aborted) break;
      timer.pause();
      yield event;
      if (signal?.aborted) throw new AttemptFailure(abortedFailure);
      timer.touch();
    }
    if (timer.signal.aborted) throw new AttemptFailure(classify(timer.signal.reason, timer, runtime, signal));
  } catch (error) {
    throw error instanceof AttemptFailure ? error : new AttemptFailure(classify(error, timer, runtime, signal));
  } finally {
    timer.dispose();
  }
}

/**
 * Runs one model turn through an adapter's `open`: idle timeout, abort, retries
 * before any output, and every failure thrown as `AppError('LLM_ERROR')`.
 */
export async function* runProviderStream(
  runtime: ProviderRuntime,
  open: (context: AttemptContext) => AsyncIterable<LlmStreamEvent>,
  signal?: AbortSignal,
): AsyncGenerator<LlmStreamEvent> {
  const shouldRetry = (error: unknown): boolean => error instanceof AttemptFailure && isRetryableFailure(error.failure);
  try {
    yield* retryStream(() => runAttempt(runtime, open, signal), { policy: runtime.policy, shouldRetry, signal });
  } catch (error) {
    const failure = error instanceof AttemptFailure ? error.failure : signal?.aborted ? abortedFailure : runtime.describeError(error);
    throw toLlmError(runtime.provider, failure, runtime.secrets);
  }
}

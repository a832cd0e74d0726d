import { isAbortLike } from './errors.js';
import type { ProviderFailure } from './errors.js';

/** Statuses that prove the service answered and accepted the credentials. */
function provesReachable(failure: ProviderFailure): boolean {
  const status = failure.status;
  if (status === undefined) return false;
  return status === 400 || status === 404 || status === 405 || status === 422;
}

/**
 * Runs a cheap probe with a time limit. 'available' when it succeeds, or when
 * the provider rejected only the probe itself (400/404/405/422); never throws.
 */
export async function runProviderCheck(
  probe: (signal: AbortSignal) => Promise<unknown>,
  describeError: (error: unknown) => ProviderFailure,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<'available' | 'unavailable'> {
  const signals = [AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])];
  try {
    await probe(AbortSignal.any(signals));
    return 'available';
  } catch (error) {
    if (isAbortLike(error)) return 'unavailable';
    return provesReachable(describeError(error)) ? 'available' : 'unavailable';
  }
}

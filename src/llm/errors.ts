import { AppError } from '../errors.js';

/** What an adapter learned from an SDK error, before it becomes an AppError. */
export interface ProviderFailure {
  message: string;
  status?: number;
  timeout?: boolean;
  aborted?: boolean;
}

const keyLikePattern = /\b(sk-[A-Za-z0-9_*-]{6,}|AIza[A-Za-z0-9_-]{10,}|AKIA[A-Z0-9]{12,})/g;
const minimumSecretLength = 4;

/** Removes every secret (and anything shaped like a well-known API key) from text. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let scrubbed = text;
  for (const secret of secrets) {
    if (secret.length >= minimumSecretLength) scrubbed = scrubbed.split(secret).join('[REDACTED]');
  }
  return scrubbed.replace(keyLikePattern, '[REDACTED]');
}

/** True for failures worth another attempt: timeouts, 408, 429 and 5xx. */
export function isRetryableFailure(failure: ProviderFailure): boolean {
  if (failure.aborted) return false;
  if (failure.timeout) return true;
  const status = failure.status ?? 0;
  return status === 408 || status === 429 || status >= 500;
}

/** Builds the LLM_ERROR the rest of the application sees; the key never appears in it. */
export function toLlmError(provider: string, failure: ProviderFailure, secrets: readonly string[]): AppError {
  const providerMessage = scrubSecrets(failure.message, secrets);
  const details: Record<string, unknown> = { provider, providerMessage };
  if (failure.status !== undefined) details.status = failure.status;
  if (failure.timeout) details.timeout = true;
  if (failure.aborted) details.aborted = true;
  const summary = failure.aborted ? 'request aborted' : providerMessage;
  return new AppError('LLM_ERROR', `LLM provider ${provider} failed: ${summary}`, details);
}

/** The message of any thrown value. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** True when the value is a DOM-style AbortError or TimeoutError. */
export function isAbortLike(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'AbortError' || error.name === 'TimeoutError';
}

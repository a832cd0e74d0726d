import type { ProviderFailure } from './errors.js';
import type { ProviderRuntime } from './provider-stream.js';
import { realSleep } from './retry.js';
import type { LlmConfig, LlmProviderOptions } from './types.js';

const defaultBaseDelayMs = 500;
const defaultMaxDelayMs = 8_000;
const defaultCheckTimeoutMs = 5_000;

/** Secrets that must never appear in an error: the key and, for Bedrock, both of its halves. */
export function secretsOf(config: LlmConfig): string[] {
  const key = config.api_key;
  if (!key) return [];
  return [key, ...key.split(':')];
}

/** The retry, timeout and error settings every adapter shares. */
export function buildRuntime(config: LlmConfig, options: LlmProviderOptions, describeError: (error: unknown) => ProviderFailure): ProviderRuntime {
  return {
    provider: config.provider,
    secrets: secretsOf(config),
    timeoutMs: config.timeout,
    describeError,
    policy: {
      maxRetries: config.max_retries,
      baseDelayMs: options.retryBaseDelayMs ?? defaultBaseDelayMs,
      maxDelayMs: options.retryMaxDelayMs ?? defaultMaxDelayMs,
      sleep: options.sleep ?? realSleep,
    },
  };
}

/** Time limit of check(). */
export function checkTimeoutOf(config: LlmConfig, options: LlmProviderOptions): number {
  return options.checkTimeoutMs ?? Math.min(config.timeout || defaultCheckTimeoutMs, defaultCheckTimeoutMs);
}

/** Builds a value on first use, so a bad configuration fails the request rather than startup. */
export function lazy<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => {
    value ??= build();
    return value;
  };
}

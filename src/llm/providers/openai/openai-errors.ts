import { APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { messageOf, type ProviderFailure } from '../../errors.js';

/** Reads status and message from an `openai` SDK error (OpenAI and Azure). */
export function describeOpenAiError(error: unknown): ProviderFailure {
  if (error instanceof APIConnectionTimeoutError) return { message: error.message, timeout: true };
  if (error instanceof APIUserAbortError) return { message: error.message, aborted: true };
  if (error instanceof APIError) {
    return error.status === undefined ? { message: error.message } : { message: error.message, status: error.status };
  }
  return { message: messageOf(error) };
}

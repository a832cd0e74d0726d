import { AppError, isAppError, unauthorized } from '../errors.js';

/** A refused provider answer as UNAUTHORIZED with a short machine reason and the library's message. */
export function providerRefusal(error: unknown, fallback: string): AppError {
  if (isAppError(error)) return error;
  const record = (error ?? {}) as { code?: unknown; error?: unknown; message?: unknown; cause?: unknown };
  // oauth errors from the provider (`invalid_grant` for a replayed or unknown code) or the library's check codes.
  const reason = typeof record.error === 'string' ? record.error : typeof record.code === 'string' ? record.code.toLowerCase() : fallback;
  const detail = typeof record.message === 'string' ? record.message.slice(0, 300) : undefined;
  return unauthorized(`single sign-on failed: ${detail ?? reason}`, detail ? { reason, detail } : { reason });
}

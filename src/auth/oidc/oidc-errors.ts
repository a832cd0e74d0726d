import { AppError, isAppError, unauthorized } from '../../errors.js';

interface ErrorLike {
  code?: unknown;
  error?: unknown;
  message?: unknown;
  cause?: unknown;
}

/** The error and its causes, outermost first (at most a few levels). */
function chain(error: unknown): ErrorLike[] {
  const links: ErrorLike[] = [];
  let current: unknown = error;
  while (current && typeof current === 'object' && links.length < 4) {
    links.push(current as ErrorLike);
    current = (current as ErrorLike).cause;
  }
  return links;
}

/**
 * A refused provider answer as UNAUTHORIZED with a short machine reason: the provider's OAuth error
 * (`invalid_grant` for a replayed or unknown code) when there is one, else the library's check code.
 */
export function providerRefusal(error: unknown, fallback: string): AppError {
  if (isAppError(error)) return error;
  const links = chain(error);
  const oauthError = links.map((link) => link.error).find((value): value is string => typeof value === 'string');
  const code = links.map((link) => link.code).find((value): value is string => typeof value === 'string');
  const reason = (oauthError ?? code?.toLowerCase() ?? fallback).slice(0, 64);
  const detail = links
    .map((link) => (typeof link.message === 'string' ? link.message : ''))
    .filter(Boolean)
    .join(': ')
    .slice(0, 300);
  return unauthorized(`single sign-on failed: ${detail || reason}`, detail ? { reason, detail } : { reason });
}

/**
 * Typed application errors carrying one of the contract's error codes.
 * This module knows nothing of HTTP; the error middleware maps codes to statuses.
 */
export const errorCodes = [
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'VALIDATION_ERROR',
  'K8S_ERROR',
  'LLM_ERROR',
  'RATE_LIMITED',
  'BUDGET_EXCEEDED',
  'PAYLOAD_TOO_LARGE',
  'UNAVAILABLE',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export type ErrorDetails = Record<string, unknown>;

/** An error whose message and details are safe to show to API clients. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }
}

/** Shorthands for the common codes. */
export const notFound = (message: string, details?: ErrorDetails): AppError => new AppError('NOT_FOUND', message, details);
export const validation = (message: string, details?: ErrorDetails): AppError => new AppError('VALIDATION_ERROR', message, details);
export const forbidden = (message: string, details?: ErrorDetails): AppError => new AppError('FORBIDDEN', message, details);
/** The object is not in a state that allows this yet (e.g. a report still generating). */
export const conflict = (message: string, details?: ErrorDetails): AppError => new AppError('CONFLICT', message, details);
export const unauthorized = (message: string, details?: ErrorDetails): AppError => new AppError('UNAUTHORIZED', message, details);

/** True when the value is an AppError (also across module copies). */
export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

import type { Logger } from 'pino';
import { AppError, type ErrorCode } from '../../errors.js';
import type { AppContext } from '../types.js';
import type { Next } from 'koa';

const statusByCode: Record<ErrorCode, number> = {
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  VALIDATION_ERROR: 400,
  K8S_ERROR: 500,
  LLM_ERROR: 500,
  RATE_LIMITED: 429,
  BUDGET_EXCEEDED: 429,
  PAYLOAD_TOO_LARGE: 413,
  UNAVAILABLE: 503,
  INTERNAL: 500,
};

/** The HTTP status for an error code (the only place statuses are chosen for errors). */
export function statusFor(error: AppError): number {
  if (error.code === 'K8S_ERROR' && error.details.reason === 'metrics_unavailable') return 503;
  if (error.code === 'VALIDATION_ERROR' && error.details.reason === 'method_not_allowed') return 405;
  return statusByCode[error.code];
}

const methodNotAllowed = (): AppError => new AppError('VALIDATION_ERROR', 'method not allowed', { reason: 'method_not_allowed' });
const knownKoaErrors: Record<number, () => AppError> = {
  405: methodNotAllowed,
  501: methodNotAllowed,
  413: () => new AppError('PAYLOAD_TOO_LARGE', 'request body too large', {}),
  415: () => new AppError('VALIDATION_ERROR', 'unsupported content type; send application/json', {}),
};

/** Turns errors thrown by Koa itself (body parser, etc.) into AppErrors. */
function fromKoaError(error: unknown): AppError {
  const status = (error as { status?: number; statusCode?: number }).status ?? (error as { statusCode?: number }).statusCode;
  const exposedMessage = (error as { expose?: boolean }).expose ? (error as Error).message : undefined;
  const known = status === undefined ? undefined : knownKoaErrors[status];
  if (known) return known();
  if (status && status >= 400 && status < 500) {
    return new AppError('VALIDATION_ERROR', exposedMessage ?? 'invalid request', {});
  }
  return new AppError('INTERNAL', 'internal error', {});
}

/** One error middleware: every failure becomes `{error, code, details}`; stacks are logged, never sent. */
export function errorMiddleware(logger: Logger) {
  return async (context: AppContext, next: Next): Promise<void> => {
    try {
      await next();
      if (context.status === 404 && context.body === undefined && context.path.startsWith('/api/')) {
        throw new AppError('NOT_FOUND', `no route for ${context.method} ${context.path}`, {});
      }
    } catch (error) {
      const appError = error instanceof AppError ? error : fromKoaError(error);
      const status = statusFor(appError);
      if (status >= 500) logger.error({ err: error, requestId: context.state.requestId, path: context.path }, 'request failed');
      if (appError.code === 'RATE_LIMITED') context.set('Retry-After', String(appError.details.retryAfter ?? 60));
      context.status = status;
      context.type = 'application/json';
      context.body = { error: appError.message, code: appError.code, details: appError.details };
    }
  };
}

import { pino, type Logger } from 'pino';

export type { Logger };

/** Secrets never reach the logs: these paths are redacted wherever they appear. */
const redactPaths = [
  'password',
  '*.password',
  'token',
  '*.token',
  'api_key',
  '*.api_key',
  'apiKey',
  '*.apiKey',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'signing_key',
  '*.signing_key',
  'bind_password',
  '*.bind_password',
  '*.headers.authorization',
  '*.headers.Authorization',
  '*.headers.cookie',
  '*.env',
];

type LoggedError = { type: string; message: string; stack?: string; code?: unknown; status?: unknown; cause?: LoggedError };

/**
 * Errors are logged by a fixed set of fields only: client errors (undici, SDKs, client-node) carry
 * request/response headers, bodies and configs that may hold tokens or API keys.
 */
export function serializeError(error: unknown, depth = 0): LoggedError | unknown {
  if (!(error instanceof Error)) return error;
  const fields = error as Error & { code?: unknown; status?: unknown; statusCode?: unknown; cause?: unknown };
  const logged: LoggedError = { type: error.constructor.name, message: error.message, stack: error.stack };
  if (fields.code !== undefined) logged.code = fields.code;
  const status = fields.status ?? fields.statusCode;
  if (status !== undefined) logged.status = status;
  if (fields.cause instanceof Error && depth < 3) logged.cause = serializeError(fields.cause, depth + 1) as LoggedError;
  return logged;
}

/** Structured logs go to stderr so stdout stays free for protocol output (MCP mode). */
export function createLogger(level: string, destination: pino.DestinationStream = pino.destination(2)): Logger {
  return pino(
    {
      level,
      redact: { paths: redactPaths, censor: '[redacted]' },
      serializers: { err: (error: unknown) => serializeError(error), error: (error: unknown) => serializeError(error) },
      base: { app: 'pilothouse' },
    },
    destination,
  );
}

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
];

/** Structured logs go to stderr so stdout stays free for protocol output (MCP mode). */
export function createLogger(level: string): Logger {
  return pino(
    { level, redact: { paths: redactPaths, censor: '[redacted]' }, base: { app: 'pilothouse' } },
    pino.destination(2),
  );
}

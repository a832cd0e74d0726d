import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './log.js';

function capture(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback): void {
      lines.push(chunk.toString('utf8'));
      callback();
    },
  });
  return { lines, stream };
}

describe('logger redaction', () => {
  it('logs errors by message, type, code and status only: never the headers or config they carry', () => {
    const { lines, stream } = capture();
    const logger = createLogger('info', stream);
    const error = Object.assign(new Error('request failed'), {
      code: 'ECONNRESET',
      status: 401,
      headers: { authorization: 'Bearer sk-live-secret' },
      config: { headers: { Authorization: 'Bearer sk-config-secret' }, apiKey: 'sk-key' },
      cause: Object.assign(new Error('socket hang up'), { request: { headers: { authorization: 'Bearer cause-secret' } } }),
    });
    logger.error({ err: error }, 'request failed');
    const line = lines.join('');
    expect(line).not.toMatch(/sk-live-secret|sk-config-secret|sk-key|cause-secret/);
    const parsed = JSON.parse(line) as { err: { message: string; code: string; status: number; cause: { message: string } } };
    expect(parsed.err).toMatchObject({ message: 'request failed', code: 'ECONNRESET', status: 401, cause: { message: 'socket hang up' } });
  });

  it('redacts secret fields and nested authorization headers', () => {
    const { lines, stream } = capture();
    const logger = createLogger('info', stream);
    logger.info({ request: { headers: { authorization: 'Bearer t0k' } }, llm: { api_key: 'sk-1' }, password: 'pw1', server: { env: { TOKEN: 'e1' } } }, 'x');
    expect(lines.join('')).not.toMatch(/t0k|sk-1|pw1|e1/);
  });
});

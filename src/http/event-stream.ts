import { PassThrough } from 'node:stream';
import type { AppContext } from './types.js';

/** A response being streamed to the client; `signal` aborts when the client goes away. */
export interface ResponseStream {
  readonly signal: AbortSignal;
  write(text: string): void;
  end(): void;
}

/**
 * Starts a streamed (chunked) response of `contentType`; nothing is buffered beyond the socket.
 * The signal fires when the client disconnects, so upstream streams can be cancelled.
 */
export function startStream(context: AppContext, contentType: string): ResponseStream {
  const body = new PassThrough();
  const abort = new AbortController();
  context.req.socket.setTimeout(0);
  context.req.socket.setNoDelay(true);
  context.status = 200;
  context.type = contentType;
  context.set('Cache-Control', 'no-cache');
  context.set('X-Accel-Buffering', 'no');
  context.body = body;
  context.res.once('close', () => abort.abort());
  return {
    signal: abort.signal,
    write: (text) => {
      if (!body.writableEnded) body.write(text);
    },
    end: () => {
      if (!body.writableEnded) body.end();
    },
  };
}

/** An SSE stream: `event: <name>` + one `data:` JSON line per event. */
export interface EventStream extends ResponseStream {
  send(event: string, data: unknown): void;
}

/** Starts a `text/event-stream` response. */
export function startEventStream(context: AppContext): EventStream {
  const stream = startStream(context, 'text/event-stream');
  stream.write(': stream open\n\n');
  return { ...stream, send: (event, data) => stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`) };
}

/** True when the client asked for SSE. */
export function wantsEventStream(context: AppContext): boolean {
  return (context.get('Accept') ?? '').includes('text/event-stream');
}

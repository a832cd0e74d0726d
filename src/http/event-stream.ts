import { PassThrough, type Readable } from 'node:stream';
import type { StreamEnd } from '../auth/sessions/session-streams.js';
import type { AppContext } from './types.js';

/** A response being streamed to the client; `signal` aborts when the client goes away or the caller's session ends. */
export interface ResponseStream {
  readonly signal: AbortSignal;
  write(text: string | Uint8Array): void;
  /** Bytes written and not yet taken by the client's connection (what a slow client makes grow). */
  pending(): number;
  /** Streams `source` into the response (with backpressure) until it ends or the stream is ended. */
  pipeFrom(source: Readable): void;
  end(): void;
}

/** What a stream writes last when the caller's session ends (SSE: an `error` event); nothing by default. */
type Farewell = (ended: StreamEnd) => string;

/**
 * Starts a streamed (chunked) response of `contentType`; nothing is buffered beyond the socket.
 * The signal fires when the client disconnects, so upstream streams can be cancelled. The stream
 * is registered with the caller's session: when that ends (logout, lock, revocation, expiry), the
 * stream writes its `farewell`, ends and aborts its signal (ADR 0027).
 */
export function startStream(context: AppContext, contentType: string, farewell?: Farewell): ResponseStream {
  const body = new PassThrough();
  const abort = new AbortController();
  let source: Readable | undefined;
  context.req.socket.setTimeout(0);
  context.req.socket.setNoDelay(true);
  context.status = 200;
  context.type = contentType;
  context.set('Cache-Control', 'no-cache');
  context.set('X-Accel-Buffering', 'no');
  context.body = body;
  const end = (): void => {
    source?.unpipe(body);
    source?.destroy();
    if (!body.writableEnded) body.end();
  };
  const release = context.state.holdStream?.((ended) => {
    source?.unpipe(body);
    if (farewell && !body.writableEnded) body.write(farewell(ended));
    end();
    abort.abort();
  });
  context.res.once('close', () => {
    release?.();
    abort.abort();
  });
  return {
    signal: abort.signal,
    write: (text) => {
      if (!body.writableEnded) body.write(text);
    },
    pending: () => body.writableLength + body.readableLength + context.res.writableLength,
    pipeFrom: (readable) => {
      source = readable;
      readable.once('error', end);
      readable.pipe(body);
    },
    end,
  };
}

/** An SSE stream: `event: <name>` + one `data:` JSON line per event. */
export interface EventStream extends ResponseStream {
  send(event: string, data: unknown): void;
}

const eventText = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** The last event of a stream whose session ended: the error body a request would now get (401 UNAUTHORIZED). */
const sessionEndedEvent: Farewell = (ended) => eventText('error', { error: ended.message, code: 'UNAUTHORIZED', details: { reason: ended.reason } });

/** Starts a `text/event-stream` response. */
export function startEventStream(context: AppContext): EventStream {
  const stream = startStream(context, 'text/event-stream', sessionEndedEvent);
  stream.write(': stream open\n\n');
  return { ...stream, send: (event, data) => stream.write(eventText(event, data)) };
}

/** True when the client asked for SSE. */
export function wantsEventStream(context: AppContext): boolean {
  return (context.get('Accept') ?? '').includes('text/event-stream');
}

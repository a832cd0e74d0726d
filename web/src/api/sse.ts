/** One Server-Sent Event: its name (`message` when absent) and the raw `data:` text. */
export interface SseEvent {
  event: string;
  data: string;
}

/**
 * Incremental SSE parser (the `text/event-stream` format): feed it text as it arrives, in any
 * chunking; it calls `onEvent` for each complete event. Comment lines (`: ping`) are skipped,
 * multi-line `data:` fields are joined with `\n`, CRLF and CR line ends are accepted.
 */
export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];

  constructor(private readonly onEvent: (event: SseEvent) => void) {}

  feed(text: string): void {
    this.buffer += text;
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match) return;
      // A lone CR at the end may be the first half of CRLF: wait for more text.
      if (match[0] === '\r' && match.index === this.buffer.length - 1) return;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      this.line(line);
    }
  }

  /** Ends the stream: a last event without its blank line is still delivered. */
  end(): void {
    if (this.buffer) this.line(this.buffer);
    this.buffer = '';
    this.line('');
  }

  private line(line: string): void {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
  }

  private dispatch(): void {
    if (this.data.length > 0) this.onEvent({ event: this.event || 'message', data: this.data.join('\n') });
    this.event = '';
    this.data = [];
  }
}

/** Reads a streamed response body as SSE until it ends or `signal` aborts. */
export async function readSse(body: ReadableStream<Uint8Array>, onEvent: (event: SseEvent) => void, signal?: AbortSignal): Promise<void> {
  const parser = new SseParser(onEvent);
  await readText(body, (text) => parser.feed(text), signal);
  parser.end();
}

/** Reads a streamed body as UTF-8 text, chunk by chunk, until it ends or `signal` aborts. */
export async function readText(body: ReadableStream<Uint8Array>, onText: (text: string) => void, signal?: AbortSignal): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const cancel = (): void => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      onText(decoder.decode(value, { stream: true }));
    }
    const rest = decoder.decode();
    if (rest) onText(rest);
  } finally {
    signal?.removeEventListener('abort', cancel);
    reader.releaseLock();
  }
}

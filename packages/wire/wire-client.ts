// The clients' shared wire module: the error class of `{error, code, details}`, the request every call
// sends, the refreshed-token headers and the SSE reading (eventsource-parser); the typed calls are in calls.ts.
// Written once, here, and imported as `@pilothouse/wire/wire-client` by the web UI (web/) and the terminal
// UI (src/tui/); Node runs this file as it is (type stripping): erasable TypeScript only (docs/adr/0036).

import { createParser, type EventSourceParser } from 'eventsource-parser';

/** The contract's error body: `{error, code, details}`. */
export interface ErrorBody {
  error: string;
  code: string;
  details?: Record<string, unknown>;
}

/** A failed API call: HTTP status (0: the service was not reached) plus the contract's error body. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown>;

  constructor(status: number, body: ErrorBody) {
    super(body.error);
    this.status = status;
    this.code = body.code;
    this.details = body.details ?? {};
  }

  /** 403 because the action needs an approved access request (just-in-time access). */
  get approvalRequired(): boolean {
    return this.status === 403 && this.details.reason === 'approval_required';
  }

  /** One line for a footer or a log: `CODE: message`. */
  get line(): string {
    return `${this.code}: ${this.message}`;
  }
}

function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as ErrorBody).error === 'string' && typeof (value as ErrorBody).code === 'string';
}

/** Builds the ApiError of a non-2xx response from its body, whatever the body is. */
export async function errorFromResponse(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  try {
    const parsed: unknown = JSON.parse(text);
    if (isErrorBody(parsed)) return new ApiError(response.status, parsed);
  } catch {
    // not JSON: fall through
  }
  return new ApiError(response.status, { error: text.trim() || response.statusText || `HTTP ${response.status}`, code: `HTTP_${response.status}` });
}

/** A network failure (service unreachable) as an ApiError with status 0. */
export function networkError(error: unknown): ApiError {
  const message = error instanceof Error ? error.message : String(error);
  return new ApiError(0, { error: `cannot reach the service: ${message}`, code: 'NETWORK' });
}

/** True for the rejection of an aborted fetch or read. */
export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** The line of any error: `CODE: message` for an ApiError, the message otherwise. */
export function errorLine(error: unknown): string {
  if (error instanceof ApiError) return error.line;
  return error instanceof Error ? error.message : String(error);
}

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;
export type Query = Record<string, string | number | boolean | undefined | null>;

/** `path?query` with empty values left out. */
export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}

/** One request as both clients send it. */
export interface WireRequest {
  method: string;
  /** The URL with its query (see withQuery). */
  url: string;
  /** The bearer token, when there is a session. */
  token?: string;
  /** Headers besides Accept, Authorization and Content-Type. */
  headers?: Record<string, string>;
  /** JSON-encoded request body. */
  body?: unknown;
  /** A text body sent as is (instead of `body`), with `contentType`. */
  text?: string;
  contentType?: string;
  accept?: string;
  signal?: AbortSignal;
}

/** Sends one request: a network failure becomes an ApiError (status 0), an abort stays an abort; the status is the caller's. */
export async function sendRequest(fetcher: Fetch, request: WireRequest): Promise<Response> {
  const headers: Record<string, string> = { ...request.headers, Accept: request.accept ?? 'application/json' };
  if (request.token) headers.Authorization = `Bearer ${request.token}`;
  const body = request.text ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
  if (body !== undefined) headers['Content-Type'] = request.text === undefined ? 'application/json' : (request.contentType ?? 'text/plain');
  try {
    return await fetcher(request.url, { method: request.method, headers, body, signal: request.signal });
  } catch (error) {
    throw isAbort(error) ? error : networkError(error);
  }
}

/** A JSON answer's body (undefined when it is empty). */
export async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  return text ? (JSON.parse(text) as unknown) : undefined;
}

export const refreshedTokenHeader = 'X-Refreshed-Token';
export const tokenExpiresHeader = 'X-Token-Expires-At';

/** The token the service hands out on an answer inside the refresh window, with its expiry (ISO 8601) when given. */
export function refreshedToken(response: Response): { token: string; expiresAt?: string } | undefined {
  const token = response.headers.get(refreshedTokenHeader);
  if (!token) return undefined;
  return { token, expiresAt: response.headers.get(tokenExpiresHeader) ?? undefined };
}

/** One Server-Sent Event: its name (`message` when absent) and the raw `data:` text. */
export interface SseEvent {
  event: string;
  data: string;
}

/**
 * Incremental SSE parser (the `text/event-stream` format) over eventsource-parser: feed it text as it arrives, in
 * any chunking; it calls `onEvent` for each complete event. Comment lines (`: ping`) are skipped, multi-line `data:`
 * fields are joined with `\n`, CRLF and CR line ends are accepted, events without data are not delivered.
 */
export class SseParser {
  private readonly parser: EventSourceParser;

  constructor(onEvent: (event: SseEvent) => void) {
    this.parser = createParser({ onEvent: (event) => onEvent({ event: event.event || 'message', data: event.data }) });
  }

  feed(text: string): void {
    this.parser.feed(text);
  }

  /** Ends the stream: a last event without its blank line is still delivered. */
  end(): void {
    this.parser.feed('\n\n');
    this.parser.reset();
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

/** One server-sent event with its data parsed as JSON (the raw text when it is not JSON). */
export interface ServerEvent {
  event: string;
  data: unknown;
}

function parsedEvent(event: SseEvent): ServerEvent {
  try {
    return { event: event.event, data: JSON.parse(event.data) as unknown };
  } catch {
    return { event: event.event, data: event.data };
  }
}

/** The events of an SSE body (an async iterable of bytes), the same parser as readSse, as they arrive. */
export async function* serverEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<ServerEvent> {
  const pending: SseEvent[] = [];
  const parser = new SseParser((event) => pending.push(event));
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    for (const event of pending.splice(0)) yield parsedEvent(event);
  }
  parser.feed(decoder.decode());
  parser.end();
  for (const event of pending.splice(0)) yield parsedEvent(event);
}

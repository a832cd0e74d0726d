import type { AgentEvent } from '../../src/agent/history/agent-events.js';
import type { TestService } from './service.js';

/** One SSE event of the chat stream, payload parsed (typed by the service's event union). */
export type ChatEvent = AgentEvent;
type EventName = AgentEvent['event'];
type PayloadOf<Name extends EventName> = Extract<AgentEvent, { event: Name }>['data'];

export interface ChatRun {
  status: number;
  headers: Headers;
  /** Every event in arrival order (empty when the request was refused). */
  events: ChatEvent[];
  /** Comment lines (`: ping`, `: stream open`). */
  comments: string[];
  /** The JSON error body when the status is not 200. */
  error?: { error: string; code: string; details: Record<string, unknown> };
  /** Payloads of the events named `name`. */
  named<Name extends EventName>(name: Name): PayloadOf<Name>[];
  /** The payload of the `index`th event named `name`; throws when there is none. */
  nth<Name extends EventName>(name: Name, index?: number): PayloadOf<Name>;
}

export interface ChatOptions {
  token?: string;
  /** A query string for the request (`?cluster=b`). */
  query?: string;
  /** Called for each event as it arrives; `abort()` drops the connection (client disconnect). */
  onEvent?(event: ChatEvent, abort: () => void): void | Promise<void>;
}

function parseBlock(block: string, run: ChatRun): ChatEvent | undefined {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) run.comments.push(line.slice(1).trim());
    else if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).trim());
  }
  return data.length ? ({ event, data: JSON.parse(data.join('\n')) } as ChatEvent) : undefined;
}

/** Posts to /api/chat/agentic and reads the SSE stream to its end (or until aborted). */
export async function chat(service: TestService, body: unknown, options: ChatOptions = {}): Promise<ChatRun> {
  const controller = new AbortController();
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'text/event-stream' };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  const response = await fetch(`${service.url}/api/chat/agentic${options.query ?? ''}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  const events: ChatEvent[] = [];
  const named: ChatRun['named'] = (name) => events.filter((event) => event.event === name).map((event) => event.data) as never;
  const nth: ChatRun['nth'] = (name, index = 0) => {
    const found = named(name)[index];
    if (found === undefined) throw new Error(`no ${name} event #${index} in ${JSON.stringify(events)}`);
    return found;
  };
  const run: ChatRun = { status: response.status, headers: response.headers, events, comments: [], named, nth };
  if (response.status !== 200) {
    run.error = (await response.json()) as ChatRun['error'];
    return run;
  }
  try {
    for await (const block of sseBlocks(response.body as unknown as AsyncIterable<Uint8Array>)) {
      const event = parseBlock(block, run);
      if (!event) continue;
      events.push(event);
      await options.onEvent?.(event, () => controller.abort());
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  }
  return run;
}

/** The blank-line separated blocks of an SSE body. */
async function* sseBlocks(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const piece of body) {
    buffer += decoder.decode(piece, { stream: true });
    let boundary: number;
    while ((boundary = buffer.indexOf('\n\n')) !== -1) {
      yield buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
    }
  }
}

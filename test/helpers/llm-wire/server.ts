import { setTimeout as sleep } from 'node:timers/promises';
import { listenHttp1AndHttp2 } from './listener.js';
import { toWireReply, type WireReply, type WireRequest } from './reply.js';
import { matchRoute, type MatchedRoute } from './routes.js';
import type { RecordedRequest, ScriptedTurn, WireDialect } from './script.js';

/** A local HTTP server that answers like OpenAI, Azure OpenAI, Ollama, Gemini, Bedrock and Anthropic. */
export interface LlmWireServer {
  /** http://127.0.0.1:PORT, no trailing slash. */
  url: string;
  /** Appends turns; each chat request (to any provider route) consumes the next one. */
  script(turns: ScriptedTurn[]): void;
  /** Every request received, chat and check, in arrival order. */
  requests: RecordedRequest[];
  /** Only the chat requests. */
  chatRequests(): RecordedRequest[];
  /** Turns not consumed yet. */
  pendingTurns(): number;
  /** When false, check routes answer 503. Default true. */
  setAvailable(available: boolean): void;
  /** Forgets turns and recorded requests, and makes check routes available again. */
  reset(): void;
  close(): Promise<void>;
}

interface WireState {
  turns: ScriptedTurn[];
  requests: RecordedRequest[];
  available: boolean;
}

const noTurnLeft: ScriptedTurn = { error: { status: 418, message: 'llm-wire: no scripted turn left' } };

async function readBody(request: WireRequest): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function record(request: WireRequest, matched: MatchedRoute, body: unknown): RecordedRequest {
  const url = new URL(request.url ?? '/', 'http://wire');
  return {
    provider: matched.route.provider,
    kind: matched.route.kind,
    httpVersion: request.httpVersion,
    method: request.method ?? 'GET',
    path: decodeURIComponent(url.pathname),
    query: Object.fromEntries(url.searchParams),
    headers: { ...request.headers },
    body,
  };
}

function sendError(reply: WireReply, dialect: WireDialect, error: { status: number; message: string }): void {
  const answer = dialect.error(error.status, error.message);
  reply.writeHead(error.status, answer.headers);
  reply.end(answer.body);
}

async function streamTurn(reply: WireReply, dialect: WireDialect, turn: ScriptedTurn, model: string): Promise<void> {
  const delayMs = turn.delayMs ?? 0;
  if (delayMs) await sleep(delayMs);
  if (reply.isClosed()) return;
  if (turn.error) return sendError(reply, dialect, turn.error);
  reply.writeHead(200, { 'content-type': dialect.contentType, 'x-amzn-requestid': 'wire-request' });
  const stopAfter = turn.failAfterChunks ?? turn.stallAfterChunks;
  let textChunks = 0;
  for (const frame of dialect.frames(turn, model)) {
    if (stopAfter !== undefined && textChunks >= stopAfter) break;
    if (delayMs) await sleep(delayMs);
    if (reply.isClosed()) return;
    reply.write(frame.data);
    if (frame.text) textChunks++;
  }
  if (stopAfter === undefined) return reply.end();
  if (turn.stallAfterChunks !== undefined) await waitUntilClosed(reply, stallLimitMs);
  else await sleep(20);
  reply.cut();
}

const stallLimitMs = 5_000;

async function waitUntilClosed(reply: WireReply, limitMs: number): Promise<void> {
  for (let waited = 0; waited < limitMs && !reply.isClosed(); waited += 10) await sleep(10);
}

function modelOf(matched: MatchedRoute, body: unknown): string {
  if (matched.route.modelFrom === 'path') return decodeURIComponent(matched.pathModel ?? '');
  return String((body as { model?: unknown } | undefined)?.model ?? 'wire-model');
}

function sendJson(reply: WireReply, status: number, body: string): void {
  reply.writeHead(status, { 'content-type': status === 200 ? 'application/json' : 'text/plain' });
  reply.end(body);
}

async function handle(state: WireState, request: WireRequest, reply: WireReply): Promise<void> {
  const path = new URL(request.url ?? '/', 'http://wire').pathname;
  const matched = matchRoute(request.method ?? 'GET', path);
  const body = await readBody(request);
  if (!matched) return sendJson(reply, 404, `llm-wire: no route ${path}`);
  state.requests.push(record(request, matched, body));
  const { dialect, kind } = matched.route;
  if (kind === 'check' && !state.available) return sendError(reply, dialect, { status: 503, message: 'llm-wire: unavailable' });
  if (kind === 'check') return sendJson(reply, 200, dialect.checkBody(modelOf(matched, body)));
  await streamTurn(reply, dialect, state.turns.shift() ?? noTurnLeft, modelOf(matched, body));
}

/** Starts the wire server on 127.0.0.1 and a free port. */
export async function startLlmWireServer(): Promise<LlmWireServer> {
  const state: WireState = { turns: [], requests: [], available: true };
  const listener = await listenHttp1AndHttp2((request, response) => {
    const reply = toWireReply(response);
    handle(state, request, reply).catch(() => reply.cut());
  });
  return {
    url: `http://127.0.0.1:${listener.port}`,
    script: (turns) => void state.turns.push(...turns),
    requests: state.requests,
    chatRequests: () => state.requests.filter((request) => request.kind === 'chat'),
    pendingTurns: () => state.turns.length,
    setAvailable: (available) => void (state.available = available),
    reset: () => {
      state.turns.length = 0;
      state.requests.length = 0;
      state.available = true;
    },
    close: () => listener.close(),
  };
}

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { matchRoute, type MatchedRoute } from './routes.js';
import type { RecordedRequest, ScriptedTurn, WireDialect } from './script.js';

/** A local HTTP server that answers like OpenAI, Azure OpenAI, Ollama, Gemini and Bedrock. */
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

async function readBody(request: IncomingMessage): Promise<unknown> {
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

function record(request: IncomingMessage, matched: MatchedRoute, body: unknown): RecordedRequest {
  const url = new URL(request.url ?? '/', 'http://wire');
  return {
    provider: matched.route.provider,
    kind: matched.route.kind,
    method: request.method ?? 'GET',
    path: decodeURIComponent(url.pathname),
    query: Object.fromEntries(url.searchParams),
    headers: { ...request.headers },
    body,
  };
}

function sendError(response: ServerResponse, dialect: WireDialect, error: { status: number; message: string }): void {
  const answer = dialect.error(error.status, error.message);
  response.writeHead(error.status, answer.headers).end(answer.body);
}

async function streamTurn(response: ServerResponse, dialect: WireDialect, turn: ScriptedTurn, model: string): Promise<void> {
  const delayMs = turn.delayMs ?? 0;
  if (delayMs) await sleep(delayMs);
  if (response.destroyed) return;
  if (turn.error) return sendError(response, dialect, turn.error);
  response.writeHead(200, { 'content-type': dialect.contentType, 'x-amzn-requestid': 'wire-request' });
  let textChunks = 0;
  for (const frame of dialect.frames(turn, model)) {
    if (turn.failAfterChunks !== undefined && textChunks >= turn.failAfterChunks) break;
    if (delayMs) await sleep(delayMs);
    if (response.destroyed) return;
    response.write(frame.data);
    if (frame.text) textChunks++;
  }
  if (turn.failAfterChunks === undefined) return void response.end();
  await sleep(20);
  response.socket?.destroy();
}

function modelOf(matched: MatchedRoute, body: unknown): string {
  if (matched.route.modelFrom === 'path') return decodeURIComponent(matched.pathModel ?? '');
  return String((body as { model?: unknown } | undefined)?.model ?? 'wire-model');
}

async function handle(state: WireState, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = new URL(request.url ?? '/', 'http://wire').pathname;
  const matched = matchRoute(request.method ?? 'GET', path);
  const body = await readBody(request);
  if (!matched) return void response.writeHead(404, { 'content-type': 'text/plain' }).end(`llm-wire: no route ${path}`);
  state.requests.push(record(request, matched, body));
  const { dialect, kind } = matched.route;
  if (kind === 'check' && !state.available) return sendError(response, dialect, { status: 503, message: 'llm-wire: unavailable' });
  if (kind === 'check') return void response.writeHead(200, { 'content-type': 'application/json' }).end(dialect.checkBody(modelOf(matched, body)));
  await streamTurn(response, dialect, state.turns.shift() ?? noTurnLeft, modelOf(matched, body));
}

/** Starts the wire server on 127.0.0.1 and a free port. */
export async function startLlmWireServer(): Promise<LlmWireServer> {
  const state: WireState = { turns: [], requests: [], available: true };
  const server: Server = createServer((request, response) => {
    handle(state, request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
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
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

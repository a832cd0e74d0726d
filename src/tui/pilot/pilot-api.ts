import type { ApiClient } from '../api/client.js';
import { errorFromResponse, serverEvents } from '@pilothouse/wire/wire-client';
import type { ChatHistory, ChatSessionSummary, PilotEvent } from './pilot-types.js';

/** The AI pilot's endpoints: the agentic chat (SSE), tool call approvals and the chat history. */
export class PilotApi {
  constructor(private readonly client: ApiClient) {}

  /** POST /api/chat/agentic: yields the turn's events until `stream_end` (or `signal` aborts); the turn names the current cluster. */
  async *ask(
    body: { message: string; namespace?: string; sessionId?: string; resource?: string; finding?: string },
    signal: AbortSignal,
  ): AsyncGenerator<PilotEvent> {
    const headers: Record<string, string> = { ...this.client.serviceHeaders(), 'Content-Type': 'application/json', Accept: 'text/event-stream' };
    if (this.client.token) headers.Authorization = `Bearer ${this.client.token}`;
    const context = {
      namespace: body.namespace ?? '',
      ...(body.resource ? { resource: body.resource } : {}),
      ...(body.finding ? { finding: body.finding } : {}),
    };
    const payload = { message: body.message, context, session_id: body.sessionId, cluster: this.client.cluster };
    const response = await fetch(this.client.url('/api/chat/agentic'), { method: 'POST', headers, body: JSON.stringify(payload), signal });
    if (!response.ok || !response.body) throw await errorFromResponse(response);
    for await (const event of serverEvents(response.body as unknown as AsyncIterable<Uint8Array>)) yield event as PilotEvent;
  }

  /** POST /api/tool/approve: the session owner's y / n on a waiting tool call. */
  async decide(id: string, approved: boolean): Promise<void> {
    await this.client.call('POST', '/api/tool/approve', { body: { id, approved } });
  }

  async sessions(): Promise<ChatSessionSummary[]> {
    const answer = await this.client.call('GET', '/api/chat/history');
    if (!('items' in answer)) throw new TypeError('GET /api/chat/history answered one session');
    return answer.items;
  }

  async history(sessionId: string): Promise<ChatHistory> {
    const answer = await this.client.call('GET', '/api/chat/history', { query: { session_id: sessionId } });
    if (!('messages' in answer)) throw new TypeError('GET /api/chat/history?session_id= answered a session list');
    return answer;
  }
}

import { randomUUID } from 'node:crypto';
import type { Principal } from '../rbac/principal.js';
import { notFound, validation } from '../errors.js';
import type { ChatSessionRecord, ChatStore } from '../store/chat-store.js';
import type { AgentLoop, TurnOutcome, TurnRequest } from './agent-loop.js';
import { SessionHistory } from './history/history-entries.js';
import { historyView, type MessageView } from './history/history-view.js';

/** A session as listed by `GET /api/chat/history`. */
export interface SessionSummary {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
}

const titleLength = 80;

function summary(session: ChatSessionRecord): SessionSummary {
  return { id: session.id, title: session.title, createdAt: session.createdAt, updatedAt: session.updatedAt };
}

function titleOf(message: string): string {
  const line = message.trim().split('\n')[0] ?? '';
  return line.length > titleLength ? `${line.slice(0, titleLength - 1)}…` : line;
}

/**
 * Chat sessions of users: opening (new or owned), one running turn per session, the history
 * view and deletion. Sessions belong to their user; anyone else (admins too) gets NOT_FOUND.
 */
export class ChatService {
  private readonly running = new Set<string>();

  constructor(
    private readonly store: ChatStore,
    private readonly loop: AgentLoop,
    private readonly newSessionId: () => string = randomUUID,
  ) {}

  /** The caller's session `sessionId`, or a new one titled after the message. */
  async openSession(principal: Principal, sessionId: string | undefined, message: string): Promise<SessionSummary> {
    if (sessionId === undefined) return summary(await this.store.createSession(this.newSessionId(), principal.username, titleOf(message)));
    const session = await this.owned(principal, sessionId);
    if (this.running.has(session.id)) throw validation('a turn is already running in this chat session', { session_id: session.id });
    return summary(session);
  }

  /** Runs one turn in an opened session; never rejects (the loop reports failures as events). */
  async runTurn(sessionId: string, request: Omit<TurnRequest, 'history'>): Promise<TurnOutcome> {
    this.running.add(sessionId);
    try {
      return await this.loop.runTurn({ ...request, history: new SessionHistory(this.store, sessionId) });
    } finally {
      this.running.delete(sessionId);
    }
  }

  async listSessions(principal: Principal): Promise<SessionSummary[]> {
    return (await this.store.listSessions(principal.username)).map(summary);
  }

  /** The session's messages with tool calls, decisions and results. */
  async history(principal: Principal, sessionId: string): Promise<{ session: SessionSummary; messages: MessageView[] }> {
    const session = await this.owned(principal, sessionId);
    return { session: summary(session), messages: historyView(await new SessionHistory(this.store, session.id).entries()) };
  }

  async deleteSession(principal: Principal, sessionId: string): Promise<void> {
    const session = await this.owned(principal, sessionId);
    if (this.running.has(session.id)) throw validation('a turn is still running in this chat session', { session_id: session.id });
    await this.store.deleteSession(session.id);
  }

  private async owned(principal: Principal, sessionId: string): Promise<ChatSessionRecord> {
    const session = await this.store.getSession(sessionId);
    if (!session || session.username !== principal.username) throw notFound(`chat session ${sessionId} not found`, { session_id: sessionId });
    return session;
  }
}

import { ApiError, errorLine } from '@pilothouse/wire/wire-client';
import type { PilotApi } from './pilot-api.js';
import type { PilotFocus } from '../core/side-pane.js';
import { applyEvent, emptyTranscript, fromHistory, waitingTool, withAccessRequest, type Transcript } from './transcript.js';

/**
 * The AI pilot's conversation, kept outside the pane so closing and reopening the pane (or switching focus)
 * neither loses it nor cuts the streaming turn. The pane subscribes (useSyncExternalStore).
 */
export class PilotChat {
  private state: Transcript = emptyTranscript;
  private readonly listeners = new Set<() => void>();
  private turn?: AbortController;
  private focused?: { focus: PilotFocus; round: number };

  constructor(
    private readonly api: PilotApi,
    private readonly now: () => number = Date.now,
  ) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly snapshot = (): Transcript => this.state;

  private set(next: Transcript): void {
    this.state = next;
    for (const listener of this.listeners) listener();
  }

  private fail(error: unknown): void {
    const code = error instanceof ApiError ? error.code : 'UNAVAILABLE';
    const text = error instanceof ApiError ? error.message : errorLine(error);
    this.set({ ...this.state, busy: false, entries: [...this.state.entries, { kind: 'error', code, text }] });
  }

  /** The finding the next questions are about (and how many times one was asked about), until dropped or a new chat. */
  focus(): { focus: PilotFocus; round: number } | undefined {
    return this.focused;
  }

  /** Puts a finding in the chat's context (the `:problems` view's ask key). */
  focusOn(focus: PilotFocus): void {
    this.focused = { focus, round: (this.focused?.round ?? 0) + 1 };
    this.set({ ...this.state });
  }

  /** Sends a question in the current session (a new one when there is none) and streams the answer in; about the focused finding, if any. */
  async ask(message: string, namespace: string | undefined): Promise<void> {
    if (this.state.busy) return;
    const controller = new AbortController();
    this.turn = controller;
    this.set({ ...this.state, busy: true, entries: [...this.state.entries, { kind: 'user', text: message }] });
    try {
      const focus = this.focused?.focus;
      const about = focus ? { namespace: focus.namespace ?? namespace, resource: focus.resource, finding: focus.finding } : { namespace };
      for await (const event of this.api.ask({ message, ...about, sessionId: this.state.sessionId }, controller.signal)) {
        this.set(applyEvent(this.state, event, this.now()));
      }
      if (this.state.busy) this.set({ ...this.state, busy: false });
    } catch (error) {
      if (!controller.signal.aborted) this.fail(error);
    }
  }

  /** y / n on the waiting tool call; false when none waits. */
  async decide(approved: boolean): Promise<boolean> {
    const waiting = waitingTool(this.state);
    if (!waiting) return false;
    const decision = approved ? 'approved' : 'rejected';
    this.set({ ...this.state, entries: this.state.entries.map((entry) => (entry === waiting ? { ...waiting, decision } : entry)) });
    try {
      await this.api.decide(waiting.id, approved);
    } catch (error) {
      this.fail(error);
    }
    return true;
  }

  /** Shows the access request filed for tool call `id` under it. */
  filed(id: string, request: { id: string; phase: string }): void {
    this.set(withAccessRequest(this.state, id, { id: request.id, phase: request.phase }));
  }

  /** Opens a stored session (chat history); a streaming turn is left. */
  async open(sessionId: string): Promise<void> {
    this.leave();
    try {
      this.set(fromHistory(await this.api.history(sessionId)));
    } catch (error) {
      this.fail(error);
    }
  }

  /** Starts a new chat. */
  reset(): void {
    this.leave();
    this.focused = undefined;
    this.set(emptyTranscript);
  }

  private leave(): void {
    this.turn?.abort();
    this.turn = undefined;
  }

  sessions = (): ReturnType<PilotApi['sessions']> => this.api.sessions();
}

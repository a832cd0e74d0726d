/** What Gemini attached to a function call that must travel back with it. */
export interface GeminiCallTrace {
  /** Gemini's own id, when it sent one (ours are generated otherwise). */
  providerId?: string;
  /** Gemini 3 rejects a replayed function call without its thought signature. */
  thoughtSignature?: string;
}

const defaultCapacity = 1_000;

/**
 * Remembers, per tool call id we handed out, the Gemini-only data the common
 * LlmToolCall cannot carry. Bounded: the oldest entries are forgotten first.
 */
export class GeminiCallMemory {
  private readonly traces = new Map<string, GeminiCallTrace>();

  constructor(private readonly capacity = defaultCapacity) {}

  remember(callId: string, trace: GeminiCallTrace): void {
    if (!trace.providerId && !trace.thoughtSignature) return;
    this.traces.set(callId, trace);
    const oldest = this.traces.keys().next().value;
    if (this.traces.size > this.capacity && oldest !== undefined) this.traces.delete(oldest);
  }

  recall(callId: string): GeminiCallTrace {
    return this.traces.get(callId) ?? {};
  }
}

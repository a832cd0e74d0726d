import type { LlmStreamEvent } from '../../../src/llm/types.js';

export interface CollectedStream {
  events: LlmStreamEvent[];
  /** What the iterator threw, if anything. */
  error: unknown;
}

/** Drains a stream, keeping the events seen before any error. */
export async function collectStream(stream: AsyncIterable<LlmStreamEvent>, onEvent?: (event: LlmStreamEvent) => void): Promise<CollectedStream> {
  const events: LlmStreamEvent[] = [];
  try {
    for await (const event of stream) {
      events.push(event);
      onEvent?.(event);
    }
    return { events, error: undefined };
  } catch (error) {
    return { events, error };
  }
}

export function textsOf(events: LlmStreamEvent[]): string[] {
  return events.flatMap((event) => (event.type === 'text' ? [event.text] : []));
}

export function toolCallsOf(events: LlmStreamEvent[]): Extract<LlmStreamEvent, { type: 'tool_call' }>['call'][] {
  return events.flatMap((event) => (event.type === 'tool_call' ? [event.call] : []));
}

export function finishReasonOf(events: LlmStreamEvent[]): string | undefined {
  const done = events.find((event) => event.type === 'done');
  return done?.type === 'done' ? done.finishReason : undefined;
}

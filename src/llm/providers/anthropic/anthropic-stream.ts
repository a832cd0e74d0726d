import type { RawMessageStreamEvent, Usage, MessageDeltaUsage } from '@anthropic-ai/sdk/resources/messages';
import { parseToolArguments } from '../../tool-calls.js';
import type { LlmStreamEvent, LlmUsage } from '../../types.js';

interface PendingToolUse {
  id: string;
  name: string;
  inputText: string;
}

type UsageFields = Partial<Pick<Usage, 'input_tokens' | 'output_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens'>>;

/**
 * Turns the Messages API's raw stream events into LlmStreamEvents: text deltas at once, a tool use
 * once its block stops (its `input_json_delta` pieces joined), the stop reason and usage at the end.
 */
export class AnthropicStreamReader {
  stopReason: string | undefined;
  sawToolCalls = false;
  private readonly pending = new Map<number, PendingToolUse>();
  private readonly counted: UsageFields = {};
  private sawUsage = false;

  read(event: RawMessageStreamEvent): LlmStreamEvent | undefined {
    if (event.type === 'message_start') this.addUsage(event.message.usage);
    if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
      this.pending.set(event.index, { id: event.content_block.id, name: event.content_block.name, inputText: '' });
    }
    if (event.type === 'content_block_delta') return this.readDelta(event.index, event.delta);
    if (event.type === 'content_block_stop') return this.finishToolUse(event.index);
    if (event.type === 'message_delta') {
      this.stopReason = event.delta.stop_reason ?? this.stopReason;
      this.addUsage(event.usage);
    }
    return undefined;
  }

  /**
   * The call's tokens: Anthropic's `input_tokens` leaves out the cache reads and writes, so the
   * prompt is all three; message_delta's counts are cumulative and replace message_start's.
   */
  usage(): LlmUsage | undefined {
    if (!this.sawUsage) return undefined;
    const cached = this.counted.cache_read_input_tokens ?? 0;
    const input = (this.counted.input_tokens ?? 0) + cached + (this.counted.cache_creation_input_tokens ?? 0);
    return { inputTokens: input, outputTokens: this.counted.output_tokens ?? 0, cachedInputTokens: cached };
  }

  private addUsage(usage: Usage | MessageDeltaUsage | undefined): void {
    if (!usage) return;
    this.sawUsage = true;
    for (const [field, value] of Object.entries(usage)) {
      if (typeof value === 'number') this.counted[field as keyof UsageFields] = value;
    }
  }

  private readDelta(index: number, delta: Extract<RawMessageStreamEvent, { type: 'content_block_delta' }>['delta']): LlmStreamEvent | undefined {
    if (delta.type === 'text_delta' && delta.text) return { type: 'text', text: delta.text };
    const pending = this.pending.get(index);
    if (pending && delta.type === 'input_json_delta') pending.inputText += delta.partial_json;
    return undefined;
  }

  private finishToolUse(index: number): LlmStreamEvent | undefined {
    const pending = this.pending.get(index);
    if (!pending) return undefined;
    this.pending.delete(index);
    this.sawToolCalls = true;
    return { type: 'tool_call', call: { id: pending.id, name: pending.name, arguments: parseToolArguments(pending.inputText) } };
  }
}

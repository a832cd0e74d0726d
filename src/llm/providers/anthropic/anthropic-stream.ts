import type { RawMessageStreamEvent, Usage, MessageDeltaUsage } from '@anthropic-ai/sdk/resources/messages';
import type { LlmStreamEvent, LlmUsage } from '../../types.js';
import { PendingToolUses } from '../../pending-tool-uses.js';

type UsageFields = Partial<Pick<Usage, 'input_tokens' | 'output_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens'>>;

/**
 * Turns the Messages API's raw stream events into LlmStreamEvents: text deltas at once, a tool use
 * once its block stops (its `input_json_delta` pieces joined), the stop reason and usage at the end.
 */
export class AnthropicStreamReader {
  stopReason: string | undefined;
  sawToolCalls = false;
  private readonly pending = new PendingToolUses();
  private readonly counted: UsageFields = {};
  private sawUsage = false;

  read(event: RawMessageStreamEvent): LlmStreamEvent | undefined {
    if (event.type === 'message_start') this.addUsage(event.message.usage);
    if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
      this.pending.start(event.index, event.content_block.id, event.content_block.name);
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
    if (delta.type === 'input_json_delta') this.pending.append(index, delta.partial_json);
    return undefined;
  }

  private finishToolUse(index: number): LlmStreamEvent | undefined {
    const call = this.pending.finish(index);
    if (call) this.sawToolCalls = true;
    return call;
  }
}

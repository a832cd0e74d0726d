import type { ConverseStreamOutput } from '@aws-sdk/client-bedrock-runtime';
import { parseToolArguments } from '../../tool-calls.js';
import type { LlmStreamEvent, LlmUsage } from '../../types.js';
import { usageOf } from '../../usage.js';

interface PendingToolUse {
  id: string;
  name: string;
  inputText: string;
}

/** Turns ConverseStream events into LlmStreamEvents; tool uses complete at contentBlockStop. */
export class BedrockStreamReader {
  stopReason: string | undefined;
  sawToolCalls = false;
  /** From the closing metadata event; Bedrock's `inputTokens` leaves out the cache reads and writes. */
  usage: LlmUsage | undefined;
  private readonly pending = new Map<number, PendingToolUse>();

  read(event: ConverseStreamOutput): LlmStreamEvent | undefined {
    if (event.contentBlockStart) this.startBlock(event.contentBlockStart);
    if (event.contentBlockDelta) return this.readDelta(event.contentBlockDelta);
    if (event.contentBlockStop) return this.finishToolUse(event.contentBlockStop.contentBlockIndex ?? 0);
    if (event.messageStop) this.stopReason = event.messageStop.stopReason;
    if (event.metadata?.usage) this.readUsage(event.metadata.usage);
    return undefined;
  }

  private readUsage(usage: NonNullable<NonNullable<ConverseStreamOutput['metadata']>['usage']>): void {
    const cached = usage.cacheReadInputTokens ?? 0;
    this.usage = usageOf((usage.inputTokens ?? 0) + cached + (usage.cacheWriteInputTokens ?? 0), usage.outputTokens, cached);
  }

  private startBlock(start: NonNullable<ConverseStreamOutput['contentBlockStart']>): void {
    const toolUse = start.start?.toolUse;
    if (!toolUse) return;
    this.pending.set(start.contentBlockIndex ?? 0, { id: toolUse.toolUseId ?? '', name: toolUse.name ?? '', inputText: '' });
  }

  private readDelta(delta: NonNullable<ConverseStreamOutput['contentBlockDelta']>): LlmStreamEvent | undefined {
    if (delta.delta?.text) return { type: 'text', text: delta.delta.text };
    const pending = this.pending.get(delta.contentBlockIndex ?? 0);
    if (pending && delta.delta?.toolUse?.input) pending.inputText += delta.delta.toolUse.input;
    return undefined;
  }

  private finishToolUse(index: number): LlmStreamEvent | undefined {
    const pending = this.pending.get(index);
    if (!pending) return undefined;
    this.pending.delete(index);
    this.sawToolCalls = true;
    return {
      type: 'tool_call',
      call: { id: pending.id, name: pending.name, arguments: parseToolArguments(pending.inputText) },
    };
  }
}

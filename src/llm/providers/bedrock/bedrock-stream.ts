import type { ConverseStreamOutput } from '@aws-sdk/client-bedrock-runtime';
import type { LlmStreamEvent, LlmUsage } from '../../types.js';
import { usageOf } from '../../usage.js';
import { PendingToolUses } from '../../pending-tool-uses.js';

/** Turns ConverseStream events into LlmStreamEvents; tool uses complete at contentBlockStop. */
export class BedrockStreamReader {
  stopReason: string | undefined;
  sawToolCalls = false;
  /** From the closing metadata event; Bedrock's `inputTokens` leaves out the cache reads and writes. */
  usage: LlmUsage | undefined;
  private readonly pending = new PendingToolUses();

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
    this.pending.start(start.contentBlockIndex ?? 0, toolUse.toolUseId ?? '', toolUse.name ?? '');
  }

  private readDelta(delta: NonNullable<ConverseStreamOutput['contentBlockDelta']>): LlmStreamEvent | undefined {
    if (delta.delta?.text) return { type: 'text', text: delta.delta.text };
    if (delta.delta?.toolUse?.input) this.pending.append(delta.contentBlockIndex ?? 0, delta.delta.toolUse.input);
    return undefined;
  }

  private finishToolUse(index: number): LlmStreamEvent | undefined {
    const call = this.pending.finish(index);
    if (call) this.sawToolCalls = true;
    return call;
  }
}

import { parseToolArguments } from './tool-calls.js';
import type { LlmStreamEvent } from './types.js';

interface PendingToolUse {
  id: string;
  name: string;
  inputText: string;
}

/** The tool uses of a stream by content block index, their JSON input gathered in pieces until the block stops. */
export class PendingToolUses {
  private readonly pending = new Map<number, PendingToolUse>();

  start(index: number, id: string, name: string): void {
    this.pending.set(index, { id, name, inputText: '' });
  }

  /** Adds a piece of input to the tool use at `index` (none there: nothing). */
  append(index: number, piece: string): void {
    const pending = this.pending.get(index);
    if (pending) pending.inputText += piece;
  }

  /** The finished tool call of the block at `index`, its input parsed; undefined when the block was no tool use. */
  finish(index: number): Extract<LlmStreamEvent, { type: 'tool_call' }> | undefined {
    const pending = this.pending.get(index);
    if (!pending) return undefined;
    this.pending.delete(index);
    return { type: 'tool_call', call: { id: pending.id, name: pending.name, arguments: parseToolArguments(pending.inputText) } };
  }
}

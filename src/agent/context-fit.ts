import type { ContextFit } from '../llm/context-window.js';
import type { LlmMessage } from '../llm/types.js';

export type { ContextFit } from '../llm/context-window.js';

/** A rough count of tokens in text (about four characters each), enough to stay under a window. */
export const charactersPerToken = 4;
/** The conversation may fill this share of the context; the rest is the answer's. */
const conversationShare = 0.75;
/** The newest turns (from a user message on) reach the model whole. */
const wholeTurns = 2;
/** Older turns keep this much of each tool result and answer. */
const olderToolCharacters = 800;
const olderTextCharacters = 2_000;

export const omittedNote = '[Earlier turns of this conversation were left out to fit the model context.]';

/** `text` cut to about `limit` characters: its head and tail around a marker saying what was left out and how to see it. */
export function cutToolOutput(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const head = text.slice(0, Math.floor(limit * 0.7));
  const tail = text.slice(text.length - Math.floor(limit * 0.2));
  const marker =
    `\n[... output cut for the model: ${text.length - head.length - tail.length} of ${text.length} characters left out here; ` +
    'the user sees the whole output. Narrow the command to see the rest (a namespace, a label selector, --tail, grep, -o jsonpath, a smaller time range).]\n';
  return `${head}${marker}${tail}`;
}

function cutText(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)} [... shortened]`;
}

const sizeOf = (messages: readonly LlmMessage[]): number => messages.reduce((total, message) => total + message.content.length, 0);

function shortenOlder(message: LlmMessage, toolLimit: number): LlmMessage {
  if (message.role === 'tool') return { ...message, content: cutToolOutput(message.content, Math.min(toolLimit, olderToolCharacters)) };
  if (message.role === 'assistant') return { ...message, content: cutText(message.content, olderTextCharacters) };
  return message;
}

/** Indexes of the user messages: where each turn starts. */
function turnStarts(messages: readonly LlmMessage[]): number[] {
  return messages.flatMap((message, index) => (message.role === 'user' ? [index] : []));
}

/** Leaves out whole turns, oldest first, until the rest fits; the first kept user message says so. */
function dropOldTurns(messages: LlmMessage[], limit: number): LlmMessage[] {
  const starts = turnStarts(messages);
  const [system] = messages;
  let kept = messages;
  for (let index = 1; index < starts.length && sizeOf(kept) > limit; index++) {
    const rest = messages.slice(starts[index]);
    const first = rest[0] as Extract<LlmMessage, { role: 'user' }>;
    kept = [...(system?.role === 'system' ? [system] : []), { role: 'user', content: `${omittedNote}\n\n${first.content}` }, ...rest.slice(1)];
  }
  return kept;
}

/**
 * The conversation as the model gets it: each tool result larger than its share of the context is cut
 * (with a marker and a hint); when the whole is still too long, the turns before the newest two are shortened,
 * and then the oldest are left out. The history itself keeps everything (the UI shows it whole).
 */
export function fitConversation(messages: readonly LlmMessage[], fit: ContextFit): LlmMessage[] {
  const toolLimit = Math.max(200, Math.floor(fit.contextTokens * fit.toolOutputShare * charactersPerToken));
  const limit = Math.floor(fit.contextTokens * conversationShare * charactersPerToken);
  const cut = messages.map((message) => (message.role === 'tool' ? { ...message, content: cutToolOutput(message.content, toolLimit) } : message));
  if (sizeOf(cut) <= limit) return cut;
  const starts = turnStarts(cut);
  const firstWhole = starts.length > wholeTurns ? (starts[starts.length - wholeTurns] ?? 0) : 0;
  const shortened = cut.map((message, index) => (index > 0 && index < firstWhole ? shortenOlder(message, toolLimit) : message));
  if (sizeOf(shortened) <= limit) return shortened;
  return dropOldTurns(shortened, limit);
}

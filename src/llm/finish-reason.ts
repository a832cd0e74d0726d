/**
 * Normalised finish reasons shared by all adapters: 'stop', 'tool_calls',
 * 'length', 'content_filter'; anything else passes through lower-cased.
 */
const aliases: Record<string, string> = {
  stop: 'stop',
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_calls: 'tool_calls',
  tool_use: 'tool_calls',
  function_call: 'tool_calls',
  length: 'length',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  content_filter: 'content_filter',
  content_filtered: 'content_filter',
  guardrail_intervened: 'content_filter',
  safety: 'content_filter',
  prohibited_content: 'content_filter',
  blocklist: 'content_filter',
};

/** Maps a provider's finish reason; a turn that produced tool calls always ends in 'tool_calls'. */
export function normalizeFinishReason(raw: string | null | undefined, sawToolCalls: boolean): string {
  if (sawToolCalls) return 'tool_calls';
  const lowered = (raw ?? 'stop').toLowerCase();
  return aliases[lowered] ?? lowered;
}

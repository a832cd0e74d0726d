import type { ScriptedTurn, WireDialect, WireFrame } from './script.js';

/** The arguments as JSON text; scripted strings pass through untouched. */
export function argumentsText(value: Record<string, unknown> | string): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Splits a string in two, so arguments arrive in several deltas as they do from OpenAI. */
export function splitInTwo(text: string): string[] {
  const middle = Math.floor(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)].filter((part) => part !== '');
}

function sse(model: string, delta: unknown, finishReason: string | null = null): WireFrame {
  const chunk = {
    id: 'chatcmpl-wire',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
  return { data: `data: ${JSON.stringify(chunk)}\n\n` };
}

function toolCallFrames(turn: ScriptedTurn, model: string): WireFrame[] {
  return (turn.toolCalls ?? []).flatMap((call, index) => {
    const id = call.id ?? `call_wire_${index}`;
    const opening = { tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: '' } }] };
    const pieces = splitInTwo(argumentsText(call.arguments)).map((part) => sse(model, { tool_calls: [{ index, function: { arguments: part } }] }));
    return [sse(model, opening), ...pieces];
  });
}

function openAiFrames(turn: ScriptedTurn, model: string, preamble: WireFrame[]): WireFrame[] {
  const texts = (turn.text ?? []).map((text, index) => ({
    ...sse(model, index === 0 ? { role: 'assistant', content: text } : { content: text }),
    text: true,
  }));
  const finish = turn.toolCalls?.length ? 'tool_calls' : 'stop';
  return [...preamble, ...texts, ...toolCallFrames(turn, model), sse(model, {}, finish), ...usageFrame(turn, model), { data: 'data: [DONE]\n\n' }];
}

/** The last chunk of a stream asked with `stream_options: {include_usage: true}`: no choices, the call's usage. */
function usageFrame(turn: ScriptedTurn, model: string): WireFrame[] {
  if (!turn.usage) return [];
  const { input, output } = turn.usage;
  const usage = {
    prompt_tokens: input,
    completion_tokens: output,
    total_tokens: input + output,
    prompt_tokens_details: { cached_tokens: turn.usage?.cached ?? 0 },
  };
  const chunk = { id: 'chatcmpl-wire', object: 'chat.completion.chunk', created: 1_700_000_000, model, choices: [], usage };
  return [{ data: `data: ${JSON.stringify(chunk)}\n\n` }];
}

const openAiError = (status: number, message: string): ReturnType<WireDialect['error']> => ({
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ error: { message, type: status === 401 ? 'invalid_request_error' : 'server_error', param: null, code: null } }),
});

/** OpenAI chat completions: `text/event-stream`, `data: {chunk}` frames, `data: [DONE]`. */
export const openAiDialect: WireDialect = {
  contentType: 'text/event-stream',
  frames: (turn, model) => openAiFrames(turn, model, []),
  error: openAiError,
  checkBody: (model) => JSON.stringify({ object: 'list', data: [{ id: model, object: 'model', created: 0, owned_by: 'wire' }] }),
};

/** Azure starts with a chunk that has no choices, only prompt filter results. */
const azurePreamble: WireFrame = {
  data: `data: ${JSON.stringify({ id: '', object: '', created: 0, model: '', choices: [], prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }] })}\n\n`,
};

export const azureDialect: WireDialect = {
  ...openAiDialect,
  frames: (turn, model) => openAiFrames(turn, model, [azurePreamble]),
};

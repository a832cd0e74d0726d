import { argumentsText, splitInTwo } from './openai-dialect.js';
import type { ScriptedTurn, WireDialect, WireFrame } from './script.js';

const errorTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

/** One server-sent event as the Messages API writes it: `event: <type>` and `data: {json with the same type}`. */
function sse(type: string, payload: Record<string, unknown> = {}, text = false): WireFrame {
  return { data: `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`, text };
}

function messageStart(turn: ScriptedTurn, model: string): WireFrame {
  const cached = turn.usage?.cached ?? 0;
  const usage = {
    input_tokens: (turn.usage?.input ?? 10) - cached,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
    output_tokens: 1,
  };
  const message = { id: 'msg_wire', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage };
  return sse('message_start', { message });
}

function textFrames(turn: ScriptedTurn): WireFrame[] {
  if (!turn.text?.length) return [];
  const deltas = turn.text.map((text) => sse('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }, true));
  return [sse('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }), sse('ping'), ...deltas, sse('content_block_stop', { index: 0 })];
}

function toolFrames(turn: ScriptedTurn): WireFrame[] {
  const first = turn.text?.length ? 1 : 0;
  return (turn.toolCalls ?? []).flatMap((call, offset) => {
    const index = first + offset;
    const block = { type: 'tool_use', id: call.id ?? `toolu_wire_${offset}`, name: call.name, input: {} };
    const pieces = splitInTwo(argumentsText(call.arguments)).map((part) =>
      sse('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: part } }),
    );
    return [sse('content_block_start', { index, content_block: block }), ...pieces, sse('content_block_stop', { index })];
  });
}

function anthropicFrames(turn: ScriptedTurn, model: string): WireFrame[] {
  if (turn.streamError) return [messageStart(turn, model), sse('error', { error: turn.streamError })];
  const stopReason = turn.toolCalls?.length ? 'tool_use' : 'end_turn';
  const finish = sse('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: turn.usage?.output ?? 5 } });
  return [messageStart(turn, model), ...textFrames(turn), ...toolFrames(turn), finish, sse('message_stop')];
}

/**
 * Anthropic Messages API streaming: `event:`/`data:` pairs message_start, content_block_start,
 * content_block_delta (text_delta, input_json_delta), content_block_stop, message_delta (stop reason,
 * output usage), message_stop; `error` events and `{type: 'error', error: {type, message}}` bodies.
 */
export const anthropicDialect: WireDialect = {
  contentType: 'text/event-stream; charset=utf-8',
  frames: anthropicFrames,
  error: (status, message) => ({
    headers: { 'content-type': 'application/json', 'request-id': 'req_wire' },
    body: JSON.stringify({ type: 'error', error: { type: errorTypes[status] ?? 'api_error', message }, request_id: 'req_wire' }),
  }),
  checkBody: () => JSON.stringify({ input_tokens: 3 }),
};

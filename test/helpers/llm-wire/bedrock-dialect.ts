import { encodeBedrockEvent } from './event-stream.js';
import { argumentsText, splitInTwo } from './openai-dialect.js';
import type { ScriptedTurn, WireDialect, WireFrame } from './script.js';

const errorTypes: Record<number, string> = {
  400: 'ValidationException',
  401: 'AccessDeniedException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  408: 'ModelTimeoutException',
  429: 'ThrottlingException',
  503: 'ServiceUnavailableException',
};

const frame = (eventType: string, payload: unknown, text = false): WireFrame => ({ data: encodeBedrockEvent(eventType, payload), text });

function textFrames(turn: ScriptedTurn): WireFrame[] {
  if (!turn.text?.length) return [];
  const deltas = turn.text.map((text) => frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text } }, true));
  return [...deltas, frame('contentBlockStop', { contentBlockIndex: 0 })];
}

function toolFrames(turn: ScriptedTurn): WireFrame[] {
  const first = turn.text?.length ? 1 : 0;
  return (turn.toolCalls ?? []).flatMap((call, offset) => {
    const contentBlockIndex = first + offset;
    const toolUse = { toolUseId: call.id ?? `tooluse_wire_${offset}`, name: call.name };
    const inputs = splitInTwo(argumentsText(call.arguments)).map((input) => frame('contentBlockDelta', { contentBlockIndex, delta: { toolUse: { input } } }));
    return [frame('contentBlockStart', { contentBlockIndex, start: { toolUse } }), ...inputs, frame('contentBlockStop', { contentBlockIndex })];
  });
}

function bedrockFrames(turn: ScriptedTurn): WireFrame[] {
  const stopReason = turn.toolCalls?.length ? 'tool_use' : 'end_turn';
  return [
    frame('messageStart', { role: 'assistant' }),
    ...textFrames(turn),
    ...toolFrames(turn),
    frame('messageStop', { stopReason }),
    frame('metadata', { ...bedrockUsage(turn), metrics: { latencyMs: 1 } }),
  ];
}

/** Bedrock's `inputTokens` leaves out the tokens read from (and written to) the prompt cache. */
function bedrockUsage(turn: ScriptedTurn): Record<string, Record<string, number>> {
  if (!turn.usage) return {};
  const { input, output, cached = 0 } = turn.usage;
  return { usage: { inputTokens: input - cached, outputTokens: output, cacheReadInputTokens: cached, cacheWriteInputTokens: 0, totalTokens: input + output } };
}

/** Bedrock ConverseStream: binary `application/vnd.amazon.eventstream` frames. */
export const bedrockDialect: WireDialect = {
  contentType: 'application/vnd.amazon.eventstream',
  frames: bedrockFrames,
  error: (status, message) => ({
    headers: { 'content-type': 'application/json', 'x-amzn-errortype': errorTypes[status] ?? 'InternalServerException' },
    body: JSON.stringify({ message }),
  }),
  checkBody: () => JSON.stringify({ inputTokens: 3 }),
};

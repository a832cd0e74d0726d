import type { ScriptedTurn, WireDialect, WireFrame } from './script.js';

const statusNames: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  503: 'UNAVAILABLE',
};

function usageMetadata(turn: ScriptedTurn): Record<string, Record<string, number>> {
  if (!turn.usage) return {};
  const { input, output, cached = 0 } = turn.usage;
  return { usageMetadata: { promptTokenCount: input, candidatesTokenCount: output, cachedContentTokenCount: cached, totalTokenCount: input + output } };
}

function event(model: string, parts: unknown[], finish?: { reason: string; turn: ScriptedTurn }): WireFrame {
  const candidate = { content: { parts, role: 'model' }, index: 0, ...(finish ? { finishReason: finish.reason } : {}) };
  const usage = finish ? usageMetadata(finish.turn) : {};
  return { data: `data: ${JSON.stringify({ candidates: [candidate], ...usage, modelVersion: model })}\r\n\r\n` };
}

function geminiFrames(turn: ScriptedTurn, model: string): WireFrame[] {
  const texts = (turn.text ?? []).map((text) => ({ ...event(model, [{ text }]), text: true }));
  const calls = turn.toolCalls?.length
    ? [
        event(
          model,
          turn.toolCalls.map((call, index) => ({ functionCall: { name: call.name, args: call.arguments }, thoughtSignature: `signature-${index}` })),
        ),
      ]
    : [];
  return [...texts, ...calls, event(model, [{ text: '' }], { reason: 'STOP', turn })];
}

/** Gemini streamGenerateContent?alt=sse: `data: {GenerateContentResponse}` frames; calls arrive whole. */
export const geminiDialect: WireDialect = {
  contentType: 'text/event-stream',
  frames: geminiFrames,
  error: (status, message) => ({
    headers: { 'content-type': 'application/json; charset=UTF-8' },
    body: JSON.stringify({ error: { code: status, message, status: statusNames[status] ?? 'INTERNAL' } }),
  }),
  checkBody: (model) => JSON.stringify({ name: `models/${model}`, displayName: model, supportedGenerationMethods: ['generateContent'] }),
};

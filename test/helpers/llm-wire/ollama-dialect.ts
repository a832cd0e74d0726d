import type { ScriptedTurn, WireDialect, WireFrame } from './script.js';

function line(model: string, message: Record<string, unknown>, extra: Record<string, unknown> = {}): WireFrame {
  const chunk = { model, created_at: new Date(0).toISOString(), message: { role: 'assistant', ...message }, done: false, ...extra };
  return { data: `${JSON.stringify(chunk)}\n` };
}

function ollamaFrames(turn: ScriptedTurn, model: string): WireFrame[] {
  const texts = (turn.text ?? []).map((text) => ({ ...line(model, { content: text }), text: true }));
  const calls = turn.toolCalls?.length
    ? [line(model, { content: '', tool_calls: turn.toolCalls.map((call) => ({ function: { name: call.name, arguments: call.arguments } })) })]
    : [];
  const counts = turn.usage ? { prompt_eval_count: turn.usage.input, eval_count: turn.usage.output } : {};
  const done = line(model, { content: '' }, { done: true, done_reason: 'stop', total_duration: 1, ...counts });
  return [...texts, ...calls, done];
}

/** Ollama /api/chat: NDJSON, one JSON object per line, tool arguments as objects. */
export const ollamaDialect: WireDialect = {
  contentType: 'application/x-ndjson',
  frames: ollamaFrames,
  error: (_status, message) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: message }) }),
  checkBody: () => JSON.stringify({ version: '0.12.0' }),
};

/** POST /api/show: a model named `*-text` has no `tools` capability (a text-only model), any other has. */
export const ollamaShowDialect: WireDialect = {
  ...ollamaDialect,
  checkBody: (model) =>
    JSON.stringify({ modelfile: '', parameters: '', template: '', capabilities: model.endsWith('-text') ? ['completion'] : ['completion', 'tools'] }),
};

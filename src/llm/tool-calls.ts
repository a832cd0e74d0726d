import { randomUUID } from 'node:crypto';

/** A fresh tool call id for providers that send none (Ollama, Gemini). */
export function newToolCallId(): string {
  return `call_${randomUUID().replaceAll('-', '')}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses accumulated JSON arguments; anything that is not a JSON object becomes `{ _raw: text }`. */
export function parseToolArguments(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return isPlainObject(parsed) ? parsed : { _raw: text };
  } catch {
    return { _raw: text };
  }
}

/** Normalises arguments that arrive already decoded (Ollama, Gemini). */
export function toArgumentsObject(value: unknown): Record<string, unknown> {
  if (typeof value === 'string') return parseToolArguments(value);
  return isPlainObject(value) ? value : {};
}

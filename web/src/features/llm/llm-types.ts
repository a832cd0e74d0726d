import type { components } from '@pilothouse/wire/types';

/** `GET /api/settings/llm`: the configuration in use, without the key. */
export type LlmView = components['schemas']['LlmSettings'];

/** `POST /api/llm/test`: the answer of one short completion, or why there was none. */
export type LlmTestResult = components['schemas']['LlmTestResult'];

/** `PUT /api/settings/llm`: the body the form sends. */
export type LlmSettingsBody = components['schemas']['LlmSettingsBody'];

export const providers = ['openai', 'azure', 'ollama', 'gemini', 'bedrock', 'anthropic'] as const satisfies readonly LlmSettingsBody['provider'][];

/** What the form edits; the key field starts empty (write-only). */
export interface LlmDraft {
  provider: LlmSettingsBody['provider'];
  model: string;
  baseUrl: string;
  apiKey: string;
  removeKey: boolean;
}

/**
 * The PUT body: an empty key field keeps the stored key, "remove" sends '' (the API's removal); an
 * emptied base URL field sends null, which clears it (a field left out would keep its value).
 */
export function llmBody(draft: LlmDraft): LlmSettingsBody {
  const body: LlmSettingsBody = { provider: draft.provider, model: draft.model.trim(), base_url: draft.baseUrl.trim() || null };
  if (draft.removeKey) body.api_key = '';
  else if (draft.apiKey) body.api_key = draft.apiKey;
  return body;
}

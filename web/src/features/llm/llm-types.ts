/** `GET /api/settings/llm`: the configuration in use, without the key. */
export interface LlmView {
  provider: string;
  model: string;
  base_url?: string;
  apiKeySet: boolean;
  apiKeySource: string;
}

export interface LlmTestResult {
  ok: boolean;
  provider: string;
  model: string;
  answer?: string;
  error?: string;
  code?: string;
}

export const providers = ['openai', 'azure', 'ollama', 'gemini', 'bedrock'] as const;

/** What the form edits; the key field starts empty (write-only). */
export interface LlmDraft {
  provider: string;
  model: string;
  baseUrl: string;
  apiKey: string;
  removeKey: boolean;
}

/** The PUT body: an empty key field keeps the stored key, "remove" sends '' (the API's removal). */
export function llmBody(draft: LlmDraft): Record<string, unknown> {
  const body: Record<string, unknown> = { provider: draft.provider, model: draft.model.trim() };
  if (draft.baseUrl.trim()) body.base_url = draft.baseUrl.trim();
  if (draft.removeKey) body.api_key = '';
  else if (draft.apiKey) body.api_key = draft.apiKey;
  return body;
}

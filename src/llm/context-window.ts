/** Context windows (tokens) of known model families, matched by the longest prefix of the model name. */
const knownWindows: [prefix: string, tokens: number][] = [
  ['gpt-3.5', 16_385],
  ['gpt-4', 8_192],
  ['gpt-4-turbo', 128_000],
  ['gpt-4o', 128_000],
  ['gpt-4.1', 1_047_576],
  ['gpt-5', 400_000],
  ['o1', 200_000],
  ['o3', 200_000],
  ['o4', 200_000],
  ['claude', 200_000],
  ['anthropic.claude', 200_000],
  ['us.anthropic.claude', 200_000],
  ['eu.anthropic.claude', 200_000],
  ['gemini', 1_048_576],
  ['llama3', 8_192],
  ['llama3.1', 131_072],
  ['llama3.2', 131_072],
  ['llama3.3', 131_072],
  ['qwen2.5', 32_768],
  ['qwen3', 40_960],
  ['mistral', 32_768],
  ['mixtral', 32_768],
  ['phi3', 4_096],
  ['phi4', 16_384],
  ['gemma2', 8_192],
  ['gemma3', 131_072],
  ['deepseek', 65_536],
];

/** The window assumed for a model nobody knows: small enough for most local models. */
export const defaultContextTokens = 32_768;

/** `llm.context_tokens` when set, else the known window of the model's family, else {@link defaultContextTokens}. */
export function contextTokensOf(model: string, configured?: number): number {
  if (configured) return configured;
  const name = model.toLowerCase().replace(/^models\//, '');
  let best: [string, number] | undefined;
  for (const entry of knownWindows) {
    if (name.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best?.[1] ?? defaultContextTokens;
}

/** How much of the model's context a conversation and each tool result may fill (the agent fits to it; settings make it). */
export interface ContextFit {
  contextTokens: number;
  /** `llm.tool_output_share`: one tool result's share of the context. */
  toolOutputShare: number;
}

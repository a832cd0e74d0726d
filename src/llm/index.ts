import { createAzureProvider } from './azure.js';
import { createBedrockProvider } from './bedrock.js';
import { createGeminiProvider } from './gemini.js';
import { createOllamaProvider } from './ollama.js';
import { createOpenAiProvider } from './openai.js';
import type { LlmConfig, LlmProvider, LlmProviderOptions } from './types.js';

export type * from './types.js';

const factories: Record<LlmConfig['provider'], (config: LlmConfig, options: LlmProviderOptions) => LlmProvider> = {
  openai: createOpenAiProvider,
  azure: createAzureProvider,
  ollama: createOllamaProvider,
  gemini: createGeminiProvider,
  bedrock: createBedrockProvider,
};

/**
 * Builds the adapter for `config.provider`. Never throws for missing credentials:
 * those surface as LLM_ERROR from streamChat and as 'unavailable' from check().
 */
export function createLlmProvider(config: LlmConfig, options: LlmProviderOptions = {}): LlmProvider {
  return factories[config.provider](config, options);
}

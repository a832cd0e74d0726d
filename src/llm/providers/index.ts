import type { LlmChatRequest, LlmConfig, LlmProvider, LlmProviderOptions, LlmStreamEvent } from '../types.js';

export type * from '../types.js';

type Factory = (config: LlmConfig, options: LlmProviderOptions) => LlmProvider;

/** Each provider's adapter and SDK load on first use, so the service starts without the SDKs it does not use (about 100 MiB). */
const loaders: Record<LlmConfig['provider'], () => Promise<Factory>> = {
  openai: async () => (await import('./openai/openai.js')).createOpenAiProvider,
  azure: async () => (await import('./openai/azure.js')).createAzureProvider,
  ollama: async () => (await import('./ollama/ollama.js')).createOllamaProvider,
  gemini: async () => (await import('./gemini/gemini.js')).createGeminiProvider,
  bedrock: async () => (await import('./bedrock/bedrock.js')).createBedrockProvider,
  anthropic: async () => (await import('./anthropic/anthropic.js')).createAnthropicProvider,
};

/** A provider whose adapter is loaded on the first call, then used for every call. */
class LazyProvider implements LlmProvider {
  private loaded?: Promise<LlmProvider>;
  private support?: Promise<'native' | 'none' | 'unknown'>;

  constructor(
    private readonly config: LlmConfig,
    private readonly options: LlmProviderOptions,
  ) {}

  get name(): string {
    return this.config.provider;
  }

  get model(): string {
    return this.config.model;
  }

  private provider(): Promise<LlmProvider> {
    this.loaded ??= loaders[this.config.provider]().then((factory) => factory(this.config, this.options));
    return this.loaded;
  }

  async *streamChat(request: LlmChatRequest): AsyncIterable<LlmStreamEvent> {
    let failed = false;
    try {
      yield* (await this.provider()).streamChat(request);
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      this.options.observe?.(this.config.provider, failed);
    }
  }

  /** Asked once per provider (the model's capabilities do not change under it). */
  toolSupport(signal?: AbortSignal): Promise<'native' | 'none' | 'unknown'> {
    this.support ??= this.provider().then((provider) => provider.toolSupport?.(signal) ?? 'unknown');
    return this.support;
  }

  async check(signal?: AbortSignal): Promise<'available' | 'unavailable'> {
    return (await this.provider()).check(signal);
  }
}

/**
 * Builds the adapter for `config.provider`. Never throws for missing credentials:
 * those surface as LLM_ERROR from streamChat and as 'unavailable' from check().
 */
export function createLlmProvider(config: LlmConfig, options: LlmProviderOptions = {}): LlmProvider {
  return new LazyProvider(config, options);
}

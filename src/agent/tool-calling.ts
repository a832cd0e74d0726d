import type { ToolCallingMode } from '../config/schema.js';
import type { LlmProvider } from '../llm/types.js';

/**
 * The mode of a model call: `native` and `prompted` as configured; `auto` is prompted when the provider
 * says the model has no tools (Ollama's model capabilities), else native.
 */
export async function resolveToolCalling(configured: ToolCallingMode | undefined, provider: LlmProvider): Promise<'native' | 'prompted'> {
  if (configured === 'prompted') return 'prompted';
  if (configured !== 'auto' || !provider.toolSupport) return 'native';
  return (await provider.toolSupport()) === 'none' ? 'prompted' : 'native';
}

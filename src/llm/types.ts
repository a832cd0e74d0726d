import type { Config } from '../config/schema.js';

/** The provider configuration (config `llm` without the API-side policy keys). */
export type LlmConfig = Omit<Config['llm'], 'allow_private_base_url'>;

/** A tool call requested by the model; `arguments` is always an object. */
export interface LlmToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** One entry of the conversation sent to the model. */
export type LlmMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: LlmToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

/** A tool offered to the model; `inputSchema` is a JSON Schema object. */
export interface LlmToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/**
 * Tokens of one model call, from the provider's usage fields. `inputTokens` counts the whole prompt,
 * cached part included; `cachedInputTokens` is the part read from the provider's prompt cache.
 */
export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
}

/**
 * What a streaming chat yields, in order: text and tool calls, then one `done` (with the call's
 * usage when the provider reported it).
 */
export type LlmStreamEvent =
  { type: 'text'; text: string } | { type: 'tool_call'; call: LlmToolCall } | { type: 'done'; finishReason: string; usage?: LlmUsage };

export interface LlmChatRequest {
  messages: LlmMessage[];
  tools: LlmToolSpec[];
  signal?: AbortSignal;
}

/** One model provider behind the common streaming interface. */
export interface LlmProvider {
  readonly name: string;
  /** The model it calls (usage rows, prices); set by createLlmProvider. */
  readonly model?: string;
  /**
   * Streams one model turn. Every failure (HTTP error, timeout, broken stream,
   * abort) is thrown from the iterator as `AppError('LLM_ERROR')`.
   */
  streamChat(request: LlmChatRequest): AsyncIterable<LlmStreamEvent>;
  /** Whether the model can call tools, where the provider says so (Ollama's model capabilities); absent: not known. */
  toolSupport?(signal?: AbortSignal): Promise<'native' | 'none' | 'unknown'>;
  /** Cheap reachability check for /api/health: 'available' | 'unavailable' */
  check(signal?: AbortSignal): Promise<'available' | 'unavailable'>;
}

/** Waits `milliseconds`; rejects when `signal` aborts. Injected so tests never wait. */
export type SleepFunction = (milliseconds: number, signal?: AbortSignal) => Promise<void>;

/** Tuning that tests (and only tests, usually) override. */
export interface LlmProviderOptions {
  sleep?: SleepFunction;
  /** First backoff delay; doubles on every retry. Default 500 ms. */
  retryBaseDelayMs?: number;
  /** Upper bound of one backoff delay. Default 8 s. */
  retryMaxDelayMs?: number;
  /** Time limit of check(). Default: min(timeout, 5 s). */
  checkTimeoutMs?: number;
  /** Sees each chat request to the provider and whether it failed (the service's metrics). */
  observe?: (provider: string, failed: boolean) => void;
}

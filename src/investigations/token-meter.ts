import type { LlmChatRequest, LlmProvider, LlmStreamEvent } from '../llm/types.js';

/**
 * The tokens one run used: the input and output tokens each provider reports with its answer (src/llm usage);
 * for a call whose provider reports none, an estimate (about four characters a token, input and output).
 */
export interface InvestigationUsage {
  tokens(): number;
}

const charactersPerToken = 4;

function requestCharacters(request: LlmChatRequest): number {
  const messages = request.messages.reduce(
    (total, message) => total + message.content.length + ('toolCalls' in message ? JSON.stringify(message.toolCalls ?? []).length : 0),
    0,
  );
  const tools = request.tools.reduce((total, tool) => total + tool.name.length + tool.description.length + JSON.stringify(tool.inputSchema).length, 0);
  return messages + tools;
}

function eventCharacters(event: LlmStreamEvent): number {
  if (event.type === 'text') return event.text.length;
  if (event.type === 'tool_call') return event.call.name.length + JSON.stringify(event.call.arguments).length;
  return 0;
}

/** Counts the input and output of every model call made through {@link wrap}. */
export class TokenMeter implements InvestigationUsage {
  private characters = 0;
  private reported = 0;

  tokens(): number {
    return this.reported + Math.ceil(this.characters / charactersPerToken);
  }

  /** The provider with every request and streamed event counted. */
  wrap(provider: LlmProvider): LlmProvider {
    const count = (characters: number): void => {
      this.characters += characters;
    };
    return {
      name: provider.name,
      ...(provider.model === undefined ? {} : { model: provider.model }),
      ...(provider.toolSupport ? { toolSupport: (signal?: AbortSignal) => provider.toolSupport!(signal) } : {}),
      check: (signal) => provider.check(signal),
      streamChat: (request: LlmChatRequest): AsyncIterable<LlmStreamEvent> => this.counted(provider, request, count),
    };
  }

  /** One call's events; its reported usage replaces the estimate of that call. */
  private async *counted(provider: LlmProvider, request: LlmChatRequest, count: (characters: number) => void): AsyncIterable<LlmStreamEvent> {
    let characters = requestCharacters(request);
    for await (const event of provider.streamChat(request)) {
      characters += eventCharacters(event);
      if (event.type === 'done' && event.usage) {
        this.reported += event.usage.inputTokens + event.usage.outputTokens;
        characters = 0;
      }
      yield event;
    }
    count(characters);
  }
}

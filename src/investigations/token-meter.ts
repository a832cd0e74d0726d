import type { LlmChatRequest, LlmProvider, LlmStreamEvent } from '../llm/types.js';

/**
 * The tokens one run used. The model call returns no usage today, so {@link TokenMeter} estimates (about
 * four characters a token, input and output); when src/llm reports usage, hand a meter that reads it instead.
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

  tokens(): number {
    return Math.ceil(this.characters / charactersPerToken);
  }

  /** The provider with every request and streamed event counted. */
  wrap(provider: LlmProvider): LlmProvider {
    const count = (characters: number): void => {
      this.characters += characters;
    };
    return {
      name: provider.name,
      check: (signal) => provider.check(signal),
      async *streamChat(request: LlmChatRequest): AsyncIterable<LlmStreamEvent> {
        count(requestCharacters(request));
        for await (const event of provider.streamChat(request)) {
          count(eventCharacters(event));
          yield event;
        }
      },
    };
  }
}

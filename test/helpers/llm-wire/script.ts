/** A tool call the scripted model makes. */
export interface ScriptedToolCall {
  name: string;
  /** An object; a string is sent verbatim (to script malformed JSON). */
  arguments: Record<string, unknown> | string;
  /** Overrides the id on the wire (OpenAI, Azure, Bedrock); Ollama and Gemini send none. */
  id?: string;
}

/** One model turn: what the next chat request to any provider route gets. */
export interface ScriptedTurn {
  /** Text chunks, streamed one wire frame each. */
  text?: string[];
  toolCalls?: ScriptedToolCall[];
  /** Answer with this HTTP error (in the provider's error format) instead of a stream. */
  error?: { status: number; message: string };
  /** Cut the connection right after this many text chunks were written. */
  failAfterChunks?: number;
  /** Go silent (connection open, nothing sent) after this many text chunks, until the client leaves. */
  stallAfterChunks?: number;
  /** Wait this long before the response headers and between frames. */
  delayMs?: number;
  /** Tokens the provider reports for this call (absent: none, except Anthropic's message_start defaults); `input` counts the cached part too. */
  usage?: { input: number; output: number; cached?: number };
  /** Anthropic: an `error` event right after message_start instead of the answer (e.g. overloaded_error). */
  streamError?: { type: string; message: string };
}

export type WireProvider = 'openai' | 'azure' | 'ollama' | 'gemini' | 'bedrock' | 'anthropic';

/** A request as the server received it. */
export interface RecordedRequest {
  provider: WireProvider;
  kind: 'chat' | 'check';
  /** '1.1' or '2.0' (the AWS SDK speaks HTTP/2). */
  httpVersion: string;
  method: string;
  /** Path without the query string, percent-decoded. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /** The JSON body, parsed; undefined when there was none. */
  body: unknown;
}

/** One piece of a streamed response; `text` marks frames that carry a text chunk. */
export interface WireFrame {
  data: string | Buffer;
  text?: boolean;
}

export interface WireErrorResponse {
  headers: Record<string, string>;
  body: string;
}

/** How one provider speaks on the wire. */
export interface WireDialect {
  contentType: string;
  frames(turn: ScriptedTurn, model: string): WireFrame[];
  error(status: number, message: string): WireErrorResponse;
  checkBody(model: string): string;
}

import type { Response } from 'undici';

/**
 * Yields the lines (without the newline) of a streamed HTTP body as they arrive, without buffering the whole body;
 * a line longer than `maxLength` comes in pieces that long.
 */
export async function* streamLines(response: Pick<Response, 'body'>, maxLength = Infinity): AsyncGenerator<string> {
  if (!response.body) return;
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body) {
    buffer += decoder.decode(chunk as Uint8Array, { stream: true });
    let newline = buffer.indexOf('\n');
    while (newline >= 0 || buffer.length >= maxLength) {
      const end = newline >= 0 && newline < maxLength ? newline : maxLength;
      yield buffer.slice(0, end);
      buffer = buffer.slice(end === newline ? end + 1 : end);
      newline = buffer.indexOf('\n');
    }
  }
  if (buffer) yield buffer;
}

/** Splits a streamed HTTP body into JSON lines (one watch event each) without buffering the whole body. */
export async function* jsonLines<T>(response: Response): AsyncGenerator<T> {
  for await (const line of streamLines(response)) {
    if (line.trim()) yield JSON.parse(line) as T;
  }
}

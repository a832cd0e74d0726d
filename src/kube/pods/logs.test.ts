import { describe, expect, it } from 'vitest';
import { logLines, maxLogLineLength } from './logs.js';

function bodyOf(chunks: string[]): { body: ReadableStream<Uint8Array> } {
  const encoder = new TextEncoder();
  return {
    body: new ReadableStream({
      start(controller): void {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
        controller.close();
      },
    }),
  };
}

async function collect(chunks: string[]): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of logLines(bodyOf(chunks) as never)) lines.push(line);
  return lines;
}

describe('log lines', () => {
  it('splits on newlines across chunks', async () => {
    expect(await collect(['one\ntw', 'o\nthree'])).toEqual(['one', 'two', 'three']);
  });

  it('never keeps more than one capped line in memory when a container prints no newline', async () => {
    const piece = 'x'.repeat(maxLogLineLength / 4);
    const lines = await collect([piece, piece, piece, piece, piece, 'end\nnext\n']);
    expect(lines.every((line) => line.length <= maxLogLineLength)).toBe(true);
    expect(lines.join('')).toBe(`${piece.repeat(5)}endnext`);
    expect(lines).toEqual(['x'.repeat(maxLogLineLength), `${piece}end`, 'next']);
  });
});

import { describe, expect, it } from 'vitest';
import { readSse, SseParser, type SseEvent } from '@pilothouse/wire/wire-client';

function parseAll(chunks: string[]): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = new SseParser((event) => events.push(event));
  for (const chunk of chunks) parser.feed(chunk);
  parser.end();
  return events;
}

describe('SseParser', () => {
  const stream =
    ': stream open\n\nevent: session\ndata: {"session_id":"s1"}\n\nevent: chunk\ndata: {"content":"Hel"}\n\n: ping\n\nevent: chunk\ndata: {"content":"lo"}\n\nevent: stream_end\ndata: {"complete":true}\n\n';

  it('parses named events and skips comments', () => {
    expect(parseAll([stream])).toEqual([
      { event: 'session', data: '{"session_id":"s1"}' },
      { event: 'chunk', data: '{"content":"Hel"}' },
      { event: 'chunk', data: '{"content":"lo"}' },
      { event: 'stream_end', data: '{"complete":true}' },
    ]);
  });

  it('gives the same events whatever the chunking', () => {
    const whole = parseAll([stream]);
    for (const size of [1, 2, 3, 7, 13]) {
      const chunks: string[] = [];
      for (let index = 0; index < stream.length; index += size) chunks.push(stream.slice(index, index + size));
      expect(parseAll(chunks)).toEqual(whole);
    }
  });

  it('accepts CRLF and CR line ends, split between chunks', () => {
    expect(parseAll(['event: a\r', '\ndata: 1\r\n\r', '\nevent: b\rdata: 2\r\r'])).toEqual([
      { event: 'a', data: '1' },
      { event: 'b', data: '2' },
    ]);
  });

  it('joins multi-line data, defaults the name to message, keeps a value without the space', () => {
    expect(parseAll(['data: one\ndata:two\n\n'])).toEqual([{ event: 'message', data: 'one\ntwo' }]);
  });

  it('delivers a last event that lacks its blank line at the end', () => {
    expect(parseAll(['event: stream_end\ndata: {}'])).toEqual([{ event: 'stream_end', data: '{}' }]);
  });

  it('ignores events without data', () => {
    expect(parseAll(['event: nothing\n\n'])).toEqual([]);
  });
});

describe('readSse', () => {
  it('reads a byte stream, multi-byte characters split across chunks', async () => {
    const bytes = new TextEncoder().encode('event: chunk\ndata: {"content":"안녕"}\n\n');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
        controller.close();
      },
    });
    const events: SseEvent[] = [];
    await readSse(body, (event) => events.push(event));
    expect(events.map((event) => JSON.parse(event.data))).toEqual([{ content: '안녕' }]);
  });
});

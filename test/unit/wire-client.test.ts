import { describe, expect, it } from 'vitest';
import { ApiError, errorFromResponse, errorLine, sendRequest, serverEvents, type ServerEvent } from '@pilothouse/wire/wire-client';

/** The bytes of `text` cut every `size` bytes (a multi-byte character may fall across two chunks). */
async function* chunked(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let index = 0; index < bytes.length; index += size) yield bytes.slice(index, index + size);
}

async function collect(body: AsyncIterable<Uint8Array>): Promise<ServerEvent[]> {
  const events: ServerEvent[] = [];
  for await (const event of serverEvents(body)) events.push(event);
  return events;
}

describe('the shared wire client (packages/wire/wire-client.ts, imported by web/ and src/tui/)', () => {
  const stream =
    ': open\r\n\r\nevent: line\r\ndata: {"line":"héllo ✓"}\r\n\r\n: ping\n\nevent: chunk\ndata: two\ndata: lines\n\nevent: stream_end\ndata: {"complete":true}';

  it('reads the same events from an SSE body whatever the chunking, CRLF and split UTF-8 included, the last one without its blank line', async () => {
    const expected = [
      { event: 'line', data: { line: 'héllo ✓' } },
      { event: 'chunk', data: 'two\nlines' },
      { event: 'stream_end', data: { complete: true } },
    ];
    for (const size of [1, 2, 3, 5, 8, 1000]) expect(await collect(chunked(stream, size)), `chunks of ${size}`).toEqual(expected);
  });

  it('maps an error answer to ApiError with the contract body {error, code, details}', async () => {
    const body = { error: 'needs approval', code: 'FORBIDDEN', details: { reason: 'approval_required' } };
    const error = await errorFromResponse(new Response(JSON.stringify(body), { status: 403 }));
    expect(error).toBeInstanceOf(ApiError);
    expect([error.status, error.code, error.message, error.details, error.approvalRequired]).toEqual([403, 'FORBIDDEN', 'needs approval', body.details, true]);
    expect(errorLine(error)).toBe('FORBIDDEN: needs approval');
  });

  it('maps an answer that is not the contract body (a proxy page, JSON of another shape) to HTTP_<status>', async () => {
    const page = await errorFromResponse(new Response('<h1>Bad Gateway</h1>\n', { status: 502 }));
    expect([page.status, page.code, page.message, page.details]).toEqual([502, 'HTTP_502', '<h1>Bad Gateway</h1>', {}]);
    const other = await errorFromResponse(new Response('{"message":"nope"}', { status: 500 }));
    expect([other.code, other.message]).toEqual(['HTTP_500', '{"message":"nope"}']);
  });

  it('sends the bearer token, the JSON body and the extra headers, and turns an unreachable service into ApiError NETWORK (status 0)', async () => {
    const seen: RequestInit[] = [];
    await sendRequest(
      async (_url, init) => {
        seen.push(init!);
        return new Response('{}');
      },
      { method: 'PUT', url: 'http://service/api/settings', token: 't1', headers: { 'X-Extra': 'e' }, body: { language: 'en' } },
    );
    expect(seen[0]).toMatchObject({ method: 'PUT', body: '{"language":"en"}' });
    expect(seen[0]!.headers).toEqual({ 'X-Extra': 'e', Accept: 'application/json', Authorization: 'Bearer t1', 'Content-Type': 'application/json' });
    const refused = sendRequest(
      async () => {
        throw new TypeError('fetch failed');
      },
      { method: 'GET', url: 'http://service/api/health' },
    );
    await expect(refused).rejects.toMatchObject({ name: 'ApiError', status: 0, code: 'NETWORK' });
    const aborted = sendRequest(
      async () => {
        throw new DOMException('aborted', 'AbortError');
      },
      { method: 'GET', url: 'http://service/api/health' },
    );
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
  });
});

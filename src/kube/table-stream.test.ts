import { Response } from 'undici';
import { describe, expect, it } from 'vitest';
import { readTable } from './table-stream.js';
import type { TableRow } from './table.js';

/** A response whose body arrives in chunks of `size` bytes. */
function chunked(text: string, size: number): Response {
  const bytes = new TextEncoder().encode(text);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let offset = 0; offset < bytes.length; offset += size) controller.enqueue(bytes.slice(offset, offset + size));
      controller.close();
    },
  });
  return new Response(stream);
}

describe('readTable', () => {
  const table = {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: { resourceVersion: '77' },
    columnDefinitions: [
      { name: 'Name', type: 'string' },
      { name: 'Note', type: 'string' },
    ],
    rows: [
      { cells: ['a', 'braces } ] { [ and "quotes" \\" inside'], object: { metadata: { name: 'a', labels: { rows: '[]' } } } },
      { cells: ['b', 'ü, 日本, 🚀'], object: { metadata: { name: 'b', managedFields: [{ fieldsV1: { 'f:a': {} } }] } } },
      { cells: ['c', ''], object: { metadata: { name: 'c' } } },
    ],
  };

  it('hands over every row as it arrives and returns the rest, whatever the chunk boundaries', async () => {
    const text = JSON.stringify(table, null, 1);
    for (const size of [1, 2, 3, 7, 64, text.length]) {
      const rows: TableRow[] = [];
      const rest = await readTable(chunked(text, size), (row) => rows.push(row));
      expect(rows, `chunks of ${size}`).toEqual(table.rows);
      expect(rest).toEqual({ ...table, rows: [] });
    }
  });

  it('reads a Table without rows', async () => {
    const rows: TableRow[] = [];
    expect(await readTable(chunked('{"kind":"Table","rows":[]}', 5), (row) => rows.push(row))).toEqual({ kind: 'Table', rows: [] });
    expect(rows).toEqual([]);
  });
});

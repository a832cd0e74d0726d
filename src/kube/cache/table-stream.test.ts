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

  /** A Table the size of a real list (several MiB), as the API server writes it: compact JSON. */
  function bigTable(count: number, object: (index: number) => Record<string, unknown> = () => ({})): { text: string; rows: TableRow[] } {
    const rows: TableRow[] = Array.from({ length: count }, (_, index) => ({
      cells: [`pod-${index}`, index % 3 === 0 ? 'say ,{"cells":[ in a "string"' : 'Running', index],
      object: {
        metadata: { name: `pod-${index}`, namespace: 'ns', labels: { app: `a${index % 7}` }, managedFields: [{ fieldsV1: { 'f:a': { '.': {}, 'f:b': {} } } }] },
        ...object(index),
      },
    }));
    return { text: JSON.stringify({ ...table, rows }), rows };
  }

  it('parses a large answer in native batches, whatever the chunk boundaries, with escaped quotes in the cells', async () => {
    const { text, rows: expected } = bigTable(12_000);
    expect(text.length).toBeGreaterThan(2 << 20);
    for (const size of [997, 65_536, 1 << 20]) {
      const rows: TableRow[] = [];
      const rest = await readTable(chunked(text, size), (row) => rows.push(row));
      expect(rows.length, `chunks of ${size}`).toBe(expected.length);
      expect(rows).toEqual(expected);
      expect(rest).toEqual({ ...table, rows: [] });
    }
  });

  it('goes on byte by byte, losing and repeating nothing, when a cut would fall inside an object', async () => {
    // Objects that hold `cells` arrays (no API server writes these). In the last row, the last row boundary found
    // is inside it: that batch does not parse and the rows pending are scanned instead.
    const nested = { spec: { nested: [{ cells: [1, 2] }, { cells: [3] }] } };
    const { text, rows: expected } = bigTable(12_000, (index) => (index === 9_000 || index === 11_999 ? nested : {}));
    const rows: TableRow[] = [];
    await readTable(chunked(text, 65_536), (row) => rows.push(row));
    expect(rows.map((row) => row.cells[0])).toEqual(expected.map((row) => row.cells[0]));
    expect(rows).toEqual(expected);
  });
});

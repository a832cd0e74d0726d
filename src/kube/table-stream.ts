import type { Response } from 'undici';
import type { Table, TableRow } from './table.js';

const quote = 34;
const backslash = 92;
const openBrace = 123;
const closeBrace = 125;
const openBracket = 91;
const closeBracket = 93;
const rowsKey = /"rows"\s*:\s*$/;

const opening = (code: number): boolean => code === openBrace || code === openBracket;
const closing = (code: number): boolean => code === closeBrace || code === closeBracket;

/** Where, in the bytes being scanned, the current row and the next piece of the head start. */
interface Cursor {
  rowStart: number;
  segmentStart: number;
}

/** How many backslashes end `bytes[from, to)` (an odd count escapes the next character). */
function trailingBackslashes(bytes: Buffer, from: number, to: number): number {
  let count = 0;
  while (to - count - 1 >= from && bytes[to - count - 1] === backslash) count += 1;
  return count;
}

/**
 * Splits a Table list's JSON as it arrives: each element of `rows` is parsed on its own and handed to
 * `onRow` (which keeps only what it needs), so the whole answer (with every row's managedFields) is
 * never held as one string or one object tree. The rest of the document (kind, metadata,
 * columnDefinitions) is parsed at the end, with `rows` empty. Works on the UTF-8 bytes: JSON's
 * structural characters are ASCII and never part of a multi-byte character.
 */
class TableScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private inRows = false;
  /** The document without the rows' elements. */
  private readonly head: Buffer[] = [];
  /** The start of a row that continues in the next chunk. */
  private carry: Buffer = Buffer.alloc(0);

  constructor(private readonly onRow: (row: TableRow) => void) {}

  feed(chunk: Buffer): void {
    const bytes = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    const cursor: Cursor = { rowStart: this.carry.length ? 0 : -1, segmentStart: 0 };
    let index = this.carry.length;
    while (index < bytes.length) {
      if (this.inString) index = this.skipString(bytes, index);
      else {
        const code = bytes[index]!;
        if (code === quote) this.inString = true;
        else if (opening(code)) this.open(bytes, index, cursor);
        else if (closing(code)) this.close(bytes, index, cursor);
        index += 1;
      }
    }
    this.carry = cursor.rowStart >= 0 ? bytes.subarray(cursor.rowStart) : Buffer.alloc(0);
    if (!this.inRows) this.head.push(bytes.subarray(cursor.segmentStart));
  }

  /** The document's other fields once everything has arrived. */
  end(): Table {
    return JSON.parse(Buffer.concat(this.head).toString('utf8')) as Table;
  }

  /** Moves past string content (to the closing quote, found natively); returns where scanning goes on. */
  private skipString(bytes: Buffer, from: number): number {
    let start = from;
    if (this.escaped) [this.escaped, start] = [false, from + 1];
    let search = start;
    for (;;) {
      const end = bytes.indexOf(quote, search);
      if (end < 0) {
        this.escaped = trailingBackslashes(bytes, start, bytes.length) % 2 === 1;
        return bytes.length;
      }
      if (trailingBackslashes(bytes, start, end) % 2 === 0) {
        this.inString = false;
        return end + 1;
      }
      search = end + 1;
    }
  }

  private open(bytes: Buffer, index: number, cursor: Cursor): void {
    if (this.inRows && this.depth === 2) {
      cursor.rowStart = index;
      cursor.segmentStart = index;
    } else if (this.depth === 1 && bytes[index] === openBracket && this.rowsFollow(bytes.subarray(cursor.segmentStart, index))) {
      this.inRows = true;
      this.head.push(bytes.subarray(cursor.segmentStart, index + 1));
      cursor.segmentStart = index + 1;
    }
    this.depth += 1;
  }

  private close(bytes: Buffer, index: number, cursor: Cursor): void {
    this.depth -= 1;
    if (!this.inRows) return;
    if (this.depth === 2 && cursor.rowStart >= 0) {
      this.onRow(JSON.parse(bytes.toString('utf8', cursor.rowStart, index + 1)) as TableRow);
      cursor.rowStart = -1;
      cursor.segmentStart = index + 1;
    } else if (this.depth === 1) {
      this.inRows = false;
      cursor.segmentStart = index;
    }
  }

  /** Whether the array opening here is the value of the top-level `rows`. */
  private rowsFollow(before: Buffer): boolean {
    return rowsKey.test(Buffer.concat([...this.head, before]).toString('utf8'));
  }
}

/** Reads a Table list response, calling `onRow` for each row as it arrives; returns the Table without its rows. */
export async function readTable(response: Response, onRow: (row: TableRow) => void): Promise<Table> {
  const scanner = new TableScanner(onRow);
  if (response.body) {
    for await (const chunk of response.body) {
      const bytes = chunk as Uint8Array;
      scanner.feed(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    }
  }
  return scanner.end();
}

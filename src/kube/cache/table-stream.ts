import type { Response } from 'undici';
import type { Table, TableRow } from './table.js';

const quote = 34;
const backslash = 92;
const openBrace = 123;
const closeBrace = 125;
const openBracket = 91;
const closeBracket = 93;
const rowsKey = /"rows"\s*:\s*$/;
/**
 * Where a row after the first starts, as the API server writes a Table (compact JSON, `cells` first). Inside a
 * string the quotes would be escaped, so the bytes only occur between rows, or at a deeper level in an object
 * that has a `cells` array; a cut there leaves unbalanced JSON, which the parse refuses.
 */
const rowMarker = Buffer.from(',{"cells":[');
/** Rows are parsed natively in batches of about this many bytes (the transient object tree stays a few MiB). */
const batchBytes = 1 << 20;
/** With no row boundary in this many bytes, the answer is not in the expected form: scan it byte by byte. */
const unexpectedBytes = 2 << 20;

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

/** Whether a batch parsed to what a Table's rows are: objects with a `cells` array. */
function areRows(value: unknown): value is TableRow[] {
  return Array.isArray(value) && value.every((row) => typeof row === 'object' && row !== null && Array.isArray((row as TableRow).cells));
}

/**
 * Splits a Table list's JSON as it arrives: its rows are parsed in batches of about 1 MiB and handed to
 * `onRow` one by one (which keeps only what it needs), so the whole answer (with every row's
 * managedFields) is never held as one string or one object tree. The rest of the document (kind,
 * metadata, columnDefinitions) is parsed at the end, with `rows` empty. Works on the UTF-8 bytes: JSON's
 * structural characters are ASCII and never part of a multi-byte character.
 *
 * The head of the document is scanned byte by byte until `rows` opens. The rows are then cut where the
 * next row starts (`,{"cells":[`, found natively) and each batch is parsed with `JSON.parse`, which is
 * several times faster than scanning. A batch that does not parse to rows, an answer in another form
 * (pretty-printed, say), and the last row with the end of the document go through the byte scanner.
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
  /** Rows are cut at row boundaries and parsed natively (until something unexpected turns up). */
  private batching = true;
  /** Row bytes not parsed yet (batching); they start where a row starts. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** The pending size at which the next batch is tried. */
  private nextBatch = batchBytes;

  constructor(private readonly onRow: (row: TableRow) => void) {}

  feed(chunk: Buffer): void {
    if (this.inRows && this.batching) this.feedRows(chunk);
    else this.scan(chunk);
  }

  /** The document's other fields once everything has arrived. */
  end(): Table {
    if (this.batching && this.pendingBytes > 0) this.parseBatch(true);
    this.scanPending();
    return JSON.parse(Buffer.concat(this.head).toString('utf8')) as Table;
  }

  /** Keeps row bytes until a batch is there. */
  private feedRows(chunk: Buffer): void {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes >= this.nextBatch) this.parseBatch(false);
  }

  /** Parses every complete row of the pending bytes (all but the last, which may go on in the next chunk). */
  private parseBatch(atEnd: boolean): void {
    const bytes = Buffer.concat(this.pending);
    const cut = bytes.lastIndexOf(rowMarker);
    if (cut <= 0) {
      if (atEnd || bytes.length >= unexpectedBytes) return this.scanPending();
      [this.pending, this.pendingBytes, this.nextBatch] = [[bytes], bytes.length, bytes.length + batchBytes];
      return;
    }
    let rows: unknown;
    try {
      rows = JSON.parse(`[${bytes.toString('utf8', 0, cut)}]`);
    } catch {
      rows = undefined;
    }
    if (!areRows(rows)) return this.scanPending();
    for (const row of rows) this.onRow(row);
    const rest = bytes.subarray(cut + 1);
    [this.pending, this.pendingBytes, this.nextBatch] = [[rest], rest.length, batchBytes];
  }

  /** Goes on byte by byte from the row boundary the pending bytes start at. */
  private scanPending(): void {
    this.batching = false;
    const pending = this.pending;
    [this.pending, this.pendingBytes] = [[], 0];
    for (const bytes of pending) this.scan(bytes);
  }

  private scan(chunk: Buffer): void {
    const bytes = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    const cursor: Cursor = { rowStart: this.carry.length ? 0 : -1, segmentStart: 0 };
    let index = this.carry.length;
    while (index < bytes.length) {
      if (this.inString) index = this.skipString(bytes, index);
      else if (this.structure(bytes, index, cursor) && this.batching) {
        // The rows begin: from here on they are cut into batches.
        this.carry = Buffer.alloc(0);
        return this.feedRows(bytes.subarray(index + 1));
      } else index += 1;
    }
    this.carry = cursor.rowStart >= 0 ? bytes.subarray(cursor.rowStart) : Buffer.alloc(0);
    if (!this.inRows) this.head.push(bytes.subarray(cursor.segmentStart));
  }

  /** Takes one character outside strings; true when it opened the array of rows. */
  private structure(bytes: Buffer, index: number, cursor: Cursor): boolean {
    const code = bytes[index]!;
    if (code === quote) this.inString = true;
    else if (closing(code)) this.close(bytes, index, cursor);
    else if (opening(code)) return this.open(bytes, index, cursor);
    return false;
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

  /** Opens an object or array; true when it is the array of rows. */
  private open(bytes: Buffer, index: number, cursor: Cursor): boolean {
    let rowsOpen = false;
    if (this.inRows && this.depth === 2) {
      cursor.rowStart = index;
      cursor.segmentStart = index;
    } else if (this.depth === 1 && bytes[index] === openBracket && this.rowsFollow(bytes.subarray(cursor.segmentStart, index))) {
      this.inRows = true;
      this.head.push(bytes.subarray(cursor.segmentStart, index + 1));
      cursor.segmentStart = index + 1;
      rowsOpen = true;
    }
    this.depth += 1;
    return rowsOpen;
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

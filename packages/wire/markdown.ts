/**
 * The assistant's answers are Markdown (the `chunk` events' text). Both clients draw them from this one parser, so
 * `**payments-worker**` is bold in the web and plain bold-less text in the terminal, never raw markers. It knows a
 * safe subset only: paragraphs, headings, lists, fenced code, and inline strong, emphasis, code and links (http,
 * https and mailto only). It produces a tree, never HTML: the clients render text nodes, so nothing the model
 * writes can become markup.
 */

/** A run of text inside a block. */
export type Inline = { kind: 'text' | 'strong' | 'emphasis' | 'code'; text: string } | { kind: 'link'; text: string; href: string };

/** A block of the answer. */
export type Block =
  | { kind: 'paragraph'; inlines: Inline[] }
  | { kind: 'heading'; level: number; inlines: Inline[] }
  | { kind: 'list'; ordered: boolean; items: Inline[][] }
  | { kind: 'code'; language: string; text: string };

// Strong and emphasis markers count only away from word characters, so snake_case and 2*3*4 stay text.
const inlinePattern =
  /(`[^`\n]+`)|((?<!\w)\*\*(?=\S)[^*\n]*?\S\*\*(?!\w)|(?<!\w)__(?=\S)[^_\n]*?\S__(?!\w))|((?<![\w*])\*(?=[^\s*])[^*\n]*?[^\s*]\*(?![\w*])|(?<![\w_])_(?=[^\s_])[^_\n]*?[^\s_]_(?![\w_]))|(\[[^\]\n]+\]\([^)\s]+\))/g;
const safeHref = /^(https?:\/\/|mailto:)/i;

function linkOf(token: string): Inline {
  const close = token.indexOf('](');
  const text = token.slice(1, close);
  const href = token.slice(close + 2, -1);
  return safeHref.test(href) ? { kind: 'link', text, href } : { kind: 'text', text: `${text} (${href})` };
}

function tokenOf(match: RegExpExecArray): Inline {
  const [token] = match;
  if (match[1]) return { kind: 'code', text: token.slice(1, -1) };
  if (match[2]) return { kind: 'strong', text: token.slice(2, -2) };
  if (match[3]) return { kind: 'emphasis', text: token.slice(1, -1) };
  return linkOf(token);
}

/** The inline runs of one line or paragraph. */
export function parseInline(text: string): Inline[] {
  const inlines: Inline[] = [];
  let last = 0;
  for (const match of text.matchAll(inlinePattern)) {
    if (match.index > last) inlines.push({ kind: 'text', text: text.slice(last, match.index) });
    inlines.push(tokenOf(match));
    last = match.index + match[0].length;
  }
  if (last < text.length) inlines.push({ kind: 'text', text: text.slice(last) });
  return inlines;
}

/** The text of inline runs without their markers (a link keeps its text). */
export function plainText(inlines: Inline[]): string {
  return inlines.map((inline) => inline.text).join('');
}

const fence = /^\s*```\s*([\w+-]*)\s*$/;
const heading = /^(#{1,6})\s+(.*)$/;
const bullet = /^\s*[-*+]\s+(.*)$/;
const numbered = /^\s*\d+[.)]\s+(.*)$/;

/** The lines up to the closing fence (or the end), and the index after them. */
function codeBlock(lines: string[], start: number): { block: Block; next: number } {
  const language = fence.exec(lines[start] ?? '')?.[1] ?? '';
  let end = start + 1;
  while (end < lines.length && !fence.test(lines[end] ?? '')) end++;
  return { block: { kind: 'code', language, text: lines.slice(start + 1, end).join('\n') }, next: end + 1 };
}

/** Consecutive list items of one kind. */
function listBlock(lines: string[], start: number, ordered: boolean): { block: Block; next: number } {
  const pattern = ordered ? numbered : bullet;
  const items: Inline[][] = [];
  let index = start;
  for (let match = pattern.exec(lines[index] ?? ''); match; match = pattern.exec(lines[index] ?? '')) {
    items.push(parseInline(match[1] ?? ''));
    index++;
  }
  return { block: { kind: 'list', ordered, items }, next: index };
}

/** A paragraph: lines up to a blank line or the start of another block. */
function paragraphBlock(lines: string[], start: number): { block: Block; next: number } {
  let index = start;
  const parts: string[] = [];
  while (index < lines.length && (lines[index] ?? '').trim() !== '' && (index === start || !startsBlock(lines[index] ?? ''))) {
    parts.push((lines[index] ?? '').trim());
    index++;
  }
  return { block: { kind: 'paragraph', inlines: parseInline(parts.join(' ')) }, next: index };
}

const startsBlock = (line: string): boolean => fence.test(line) || heading.test(line) || bullet.test(line) || numbered.test(line);

function blockAt(lines: string[], index: number): { block: Block; next: number } {
  const line = lines[index] ?? '';
  if (fence.test(line)) return codeBlock(lines, index);
  const title = heading.exec(line);
  if (title) return { block: { kind: 'heading', level: title[1]!.length, inlines: parseInline(title[2] ?? '') }, next: index + 1 };
  if (bullet.test(line)) return listBlock(lines, index, false);
  if (numbered.test(line)) return listBlock(lines, index, true);
  return paragraphBlock(lines, index);
}

/** The blocks of an answer (partial answers parse too: an open fence runs to the end). */
export function parseMarkdown(text: string): Block[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let index = 0;
  while (index < lines.length) {
    if ((lines[index] ?? '').trim() === '') {
      index++;
      continue;
    }
    const { block, next } = blockAt(lines, index);
    blocks.push(block);
    index = next;
  }
  return blocks;
}

/**
 * The blocks a reader sees: a ```tool_call block is how a model without native tool calling asks for a tool
 * (prompted mode); the clients show that call as its tool card, so the block itself is left out of the text.
 */
export function answerBlocks(text: string): Block[] {
  return parseMarkdown(text).filter((block) => !(block.kind === 'code' && block.language === 'tool_call'));
}

/** PromQL string literals: quoting a value for a matcher, and reading the value of one the caller wrote. */

/** A double-quoted PromQL string of `value` (the same escapes as Go's strconv.Quote for the characters that matter). */
export function quotePromql(value: string): string {
  return JSON.stringify(value);
}

const simpleEscapes: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'", a: '\u0007', b: '\b', f: '\f', v: '\v' };

const numericEscapes: readonly { pattern: RegExp; base: number; skip: number }[] = [
  { pattern: /^x([0-9a-fA-F]{2})/, base: 16, skip: 1 },
  { pattern: /^u([0-9a-fA-F]{4})/, base: 16, skip: 1 },
  { pattern: /^U([0-9a-fA-F]{8})/, base: 16, skip: 1 },
  { pattern: /^([0-7]{3})/, base: 8, skip: 0 },
];

/** One escape at the start of `rest` (just after the backslash): the character(s) it stands for and how many characters it took. */
function escapeAt(rest: string): { text: string; length: number } | undefined {
  const simple = simpleEscapes[rest[0] ?? ''];
  if (simple !== undefined) return { text: simple, length: 1 };
  for (const { pattern, base, skip } of numericEscapes) {
    const digits = pattern.exec(rest)?.[1];
    if (digits === undefined) continue;
    const code = Number.parseInt(digits, base);
    return code > 0x10ffff ? undefined : { text: String.fromCodePoint(code), length: skip + digits.length };
  }
  return undefined;
}

/** The value of a quoted ('…' or "…") body with Go escapes, or undefined on a bad escape or a bare quote or newline. */
function unescapeBody(body: string, quote: string): string | undefined {
  let value = '';
  for (let index = 0; index < body.length; index += 1) {
    const character = body[index] ?? '';
    if (character === quote || character === '\n') return undefined;
    if (character !== '\\') {
      value += character;
      continue;
    }
    const escape = escapeAt(body.slice(index + 1));
    if (!escape) return undefined;
    value += escape.text;
    index += escape.length;
  }
  return value;
}

/**
 * The value of a PromQL string literal as written (with its quotes), or undefined when it is not a
 * complete literal (unterminated, a bad escape).
 */
export function unquotePromql(literal: string): string | undefined {
  const quote = literal[0] ?? '';
  if (literal.length < 2 || literal.at(-1) !== quote) return undefined;
  const body = literal.slice(1, -1);
  if (quote === '`') return body.includes('`') ? undefined : body;
  return quote === '"' || quote === "'" ? unescapeBody(body, quote) : undefined;
}

/** A regular expression (RE2 syntax) matching exactly `value`. */
export function escapeRegex(value: string): string {
  return value.replace(/[\\^$.|?*+()[\]{}]/g, (character) => `\\${character}`);
}

import { decodeAnsiC } from './shell-words.js';

/** The words of one plain command, or why the text is not one (`shell`: needs a shell; `syntax`: unbalanced quotes). */
export type PlainWords = { ok: true; words: string[] } | { ok: false; problem: 'shell' | 'syntax' };

const operators = new Set(['|', '&', ';', '<', '>', '(', ')', '`']);
const blanks = new Set([' ', '\t']);
const doubleQuoteEscapes = new Set(['$', '`', '"', '\\', '\n']);

/** One pass over the text, with the word being built. */
class Splitter {
  readonly words: string[] = [];
  private word = '';
  private inWord = false;
  private index = 0;
  private readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  run(): PlainWords {
    while (this.index < this.text.length) {
      const problem = this.step(this.text.charAt(this.index));
      if (problem) return { ok: false, problem };
    }
    this.end();
    return { ok: true, words: this.words };
  }

  private end(): void {
    if (this.inWord) this.words.push(this.word);
    this.word = '';
    this.inWord = false;
  }

  private append(text: string): void {
    this.word += text;
    this.inWord = true;
  }

  private step(character: string): 'shell' | 'syntax' | undefined {
    if (blanks.has(character)) {
      this.end();
      this.index += 1;
      return undefined;
    }
    if (operators.has(character)) return 'shell';
    const special = this.special(character);
    if (special) return special();
    if (character === '=' && this.words.length === 0 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(this.word)) return 'shell';
    this.append(character);
    this.index += 1;
    return undefined;
  }

  /** The handler of a quoting or structural character, if `character` is one. */
  private special(character: string): (() => 'shell' | 'syntax' | undefined) | undefined {
    if (character === '\n') return () => this.newline();
    if (character === '#' && !this.inWord) return () => this.comment();
    if (character === '\\') return () => this.escape();
    if (character === "'") return () => this.single();
    if (character === '"') return () => this.double(this.index + 1);
    return character === '$' ? () => this.dollar() : undefined;
  }

  /** An unquoted newline ends the command: only blanks and comments may follow. */
  private newline(): 'shell' | undefined {
    this.end();
    const rest = this.text.slice(this.index + 1);
    const onlyComments = rest.split('\n').every((line) => /^[ \t]*(#.*)?$/.test(line));
    if (!onlyComments) return 'shell';
    this.index = this.text.length;
    return undefined;
  }

  private comment(): 'shell' | undefined {
    const newline = this.text.indexOf('\n', this.index);
    this.index = newline === -1 ? this.text.length : newline;
    return undefined;
  }

  private escape(): 'syntax' | undefined {
    const next = this.text.charAt(this.index + 1);
    if (this.index + 1 >= this.text.length) return 'syntax';
    if (next !== '\n') this.append(next);
    this.index += 2;
    return undefined;
  }

  private single(): 'syntax' | undefined {
    const close = this.text.indexOf("'", this.index + 1);
    if (close === -1) return 'syntax';
    this.append(this.text.slice(this.index + 1, close));
    this.index = close + 1;
    return undefined;
  }

  private double(start: number): 'shell' | 'syntax' | undefined {
    let position = start;
    let value = '';
    while (position < this.text.length) {
      const character = this.text.charAt(position);
      if (character === '"') {
        this.append(value);
        this.index = position + 1;
        return undefined;
      }
      if (character === '$' || character === '`') return 'shell';
      if (character === '\\' && doubleQuoteEscapes.has(this.text.charAt(position + 1))) {
        const next = this.text.charAt(position + 1);
        if (next !== '\n') value += next;
        position += 2;
        continue;
      }
      value += character;
      position += 1;
    }
    return 'syntax';
  }

  /** `$'...'` (ANSI-C quoting) and `$"..."` are quoting; any other `$` is an expansion. */
  private dollar(): 'shell' | 'syntax' | undefined {
    const next = this.text.charAt(this.index + 1);
    if (next === '"') return this.double(this.index + 2);
    if (next !== "'") return 'shell';
    let position = this.index + 2;
    while (position < this.text.length && this.text.charAt(position) !== "'") position += this.text.charAt(position) === '\\' ? 2 : 1;
    if (position >= this.text.length) return 'syntax';
    this.append(decodeAnsiC(this.text.slice(this.index + 2, position)));
    this.index = position + 1;
    return undefined;
  }
}

/**
 * Splits one plain command into words with the shell's quoting rules (blanks, quotes, backslashes,
 * `$'...'`, line continuations, comments) in one linear pass, without a shell: operators, expansions,
 * assignments and a second command are refused (`shell`), unbalanced quotes are `syntax`.
 */
export function splitPlainWords(text: string): PlainWords {
  return new Splitter(text).run();
}

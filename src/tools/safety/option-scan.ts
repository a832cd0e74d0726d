import type { ShellWord } from './types.js';

/** Options of a command: which take a value in the next word. */
export interface OptionGrammar {
  /** Options written as separate words whose value is the next word (`-n 5`); glued forms (`-n5`, `--n=5`) need no entry. */
  valueOptions: ReadonlySet<string>;
}

/** Program-name form of a word: `/usr/bin/kubectl` → `kubectl`. */
export function programName(word: ShellWord): string {
  const slash = word.text.lastIndexOf('/');
  return slash === -1 ? word.text : word.text.slice(slash + 1);
}

/** Words joined by spaces, as the blocked patterns see a command. */
export function argvText(argv: readonly ShellWord[]): string {
  return argv.map((word) => word.text).join(' ');
}

function optionWidth(word: string, grammar: OptionGrammar): number {
  if (grammar.valueOptions.has(word)) return 2;
  return 1;
}

function isOption(word: string): boolean {
  return word.startsWith('-') && word !== '-';
}

/**
 * Index of the first operand (non-option word) of `args`, skipping options and their values.
 * `--` ends the options (the index after it is returned).
 */
export function firstOperandIndex(args: readonly ShellWord[], grammar: OptionGrammar): number {
  let index = 0;
  while (index < args.length) {
    const word = args[index]?.text ?? '';
    if (word === '--') return index + 1;
    if (!isOption(word)) return index;
    index += optionWidth(word, grammar);
  }
  return args.length;
}

/** The operands (non-option words) of `args`, wherever they appear, up to a `--`. */
export function operands(args: readonly ShellWord[], grammar: OptionGrammar): string[] {
  const found: string[] = [];
  let index = 0;
  while (index < args.length) {
    const word = args[index]?.text ?? '';
    if (word === '--') break;
    if (isOption(word)) {
      index += optionWidth(word, grammar);
      continue;
    }
    found.push(word);
    index += 1;
  }
  return found;
}

/** Whether a flag is present, as `--flag`, `--flag=value` or a listed short form, before any `--`. */
export function hasFlag(args: readonly ShellWord[], ...names: string[]): boolean {
  for (const word of args) {
    if (word.text === '--') return false;
    if (names.some((name) => word.text === name || word.text.startsWith(`${name}=`))) return true;
  }
  return false;
}

/** Value of `--flag=value` or `--flag value`, before any `--`. */
export function flagValue(args: readonly ShellWord[], name: string): string | undefined {
  for (let index = 0; index < args.length; index += 1) {
    const word = args[index]?.text ?? '';
    if (word === '--') return undefined;
    if (word.startsWith(`${name}=`)) return word.slice(name.length + 1);
    if (word === name) return args[index + 1]?.text ?? '';
  }
  return undefined;
}

/** Whether a cluster of short options (`-rf`, `-it`) contains one of the letters. */
export function hasShortLetter(args: readonly ShellWord[], letters: string): boolean {
  for (const word of args) {
    if (word.text === '--') return false;
    if (!/^-[a-zA-Z]+$/.test(word.text)) continue;
    if ([...letters].some((letter) => word.text.includes(letter))) return true;
  }
  return false;
}

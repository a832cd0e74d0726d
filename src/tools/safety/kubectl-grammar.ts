import { kubectlFlagTable } from './kubectl-flag-table.js';
import type { CommandSpec, FlagSpec } from './kubectl-flag-types.js';

/** A flag as given on the command line, with the value kubectl would set. */
export interface FlagUse {
  spec: FlagSpec;
  /** `local`: the command's own flag; `global`: one of kubectl's global flags. */
  scope: 'local' | 'global';
  /** How the model wrote it (`-nprod`, `--namespace`). */
  written: string;
  value: string;
}

/** A kubectl argv as kubectl itself reads it. */
export interface KubectlCommandLine {
  /** Command path by canonical names (`['rollout', 'status']`); empty for plain `kubectl`. */
  path: string[];
  /** Every flag in order (repeated flags appear each time). */
  flags: FlagUse[];
  /** Positional arguments, including those after `--`. */
  args: string[];
  /** Number of positional arguments before `--`, or -1 without `--`. */
  dashAt: number;
  /** `-h`/`--help`: kubectl prints help and runs nothing. */
  help: boolean;
}

export type KubectlParse = { ok: true; line: KubectlCommandLine } | { ok: false; reason: string };

/** A command's flags: its own, then the global ones it does not shadow (pflag's merge order). */
class FlagSet {
  private readonly byName = new Map<string, { spec: FlagSpec; scope: 'local' | 'global' }>();
  private readonly byShort = new Map<string, { spec: FlagSpec; scope: 'local' | 'global' }>();

  constructor(local: readonly FlagSpec[], global: readonly FlagSpec[]) {
    for (const spec of local) this.add(spec, 'local');
    for (const spec of global) this.add(spec, 'global');
  }

  private add(spec: FlagSpec, scope: 'local' | 'global'): void {
    if (this.byName.has(spec.name)) return;
    this.byName.set(spec.name, { spec, scope });
    if (spec.shorthand && !this.byShort.has(spec.shorthand)) this.byShort.set(spec.shorthand, { spec, scope });
  }

  /** Lookup by long name after kubectl's normalisation (`dry_run` → `dry-run`). */
  long(name: string): { spec: FlagSpec; scope: 'local' | 'global' } | undefined {
    return this.byName.get(name.replaceAll('_', '-'));
  }

  short(letter: string): { spec: FlagSpec; scope: 'local' | 'global' } | undefined {
    return this.byShort.get(letter);
  }
}

interface CommandNode {
  name: string;
  path: string[];
  spec: CommandSpec;
  flags: FlagSet;
  children: Map<string, CommandNode>;
}

function buildTree(): CommandNode {
  const { global, root: rootFlags, commands } = kubectlFlagTable;
  const root: CommandNode = {
    name: 'kubectl',
    path: [],
    spec: { runnable: true, flags: rootFlags },
    flags: new FlagSet(rootFlags, global),
    children: new Map(),
  };
  const paths = Object.keys(commands).sort((first, second) => first.split(' ').length - second.split(' ').length);
  for (const key of paths) {
    const spec = commands[key] as CommandSpec;
    const path = key.split(' ');
    let parent = root;
    for (const name of path.slice(0, -1)) parent = parent.children.get(name) ?? parent;
    const name = path[path.length - 1] ?? '';
    const node: CommandNode = { name, path, spec, flags: new FlagSet(spec.flags, global), children: new Map() };
    parent.children.set(name, node);
    for (const alias of spec.aliases ?? []) if (!parent.children.has(alias)) parent.children.set(alias, node);
  }
  return root;
}

const tree = buildTree();

function takesNextWord(entry: { spec: FlagSpec } | undefined): boolean {
  return entry === undefined || entry.spec.noOpt === undefined || entry.spec.noOpt === '';
}

/** cobra's view while finding a command: `--flag` or `-f` without `=` whose flag is unknown or needs a value takes the next word. */
function consumesNext(word: string, flags: FlagSet): boolean {
  if (!word.startsWith('-') || word.includes('=')) return false;
  if (word.startsWith('--')) return takesNextWord(flags.long(word.slice(2)));
  return word.length === 2 && takesNextWord(flags.short(word.slice(1)));
}

/** cobra's stripFlags: the words that may name sub-commands, with the current command's flags. */
function commandWords(args: readonly string[], flags: FlagSet): string[] {
  const words: string[] = [];
  let index = 0;
  while (index < args.length) {
    const word = args[index] ?? '';
    index += 1;
    if (word === '--') break;
    if (consumesNext(word, flags)) {
      if (args.length - index <= 1) break;
      index += 1;
    } else if (word !== '' && !word.startsWith('-')) words.push(word);
  }
  return words;
}

/** cobra's argsMinusFirstX: the arguments without the first plain occurrence of a sub-command name. */
function withoutWord(args: readonly string[], target: string, flags: FlagSet): string[] {
  for (let index = 0; index < args.length; index += 1) {
    const word = args[index] ?? '';
    if (word === '--') break;
    if (consumesNext(word, flags)) index += 1;
    else if (!word.startsWith('-') && word === target) return [...args.slice(0, index), ...args.slice(index + 1)];
  }
  return [...args];
}

/** cobra's Command.Find: walks down the tree by the first non-flag word at each level. */
function findCommand(args: readonly string[]): { node: CommandNode; rest: string[] } {
  let node = tree;
  let rest = [...args];
  for (;;) {
    const [next] = commandWords(rest, node.flags);
    const child = next === undefined ? undefined : node.children.get(next);
    if (!child || next === undefined) return { node, rest };
    rest = withoutWord(rest, next, node.flags);
    node = child;
  }
}

const boolTexts = new Set(['1', 't', 'T', 'TRUE', 'true', 'True', '0', 'f', 'F', 'FALSE', 'false', 'False']);

class FlagParser {
  readonly flags: FlagUse[] = [];
  readonly args: string[] = [];
  dashAt = -1;
  help = false;
  private readonly set: FlagSet;

  constructor(set: FlagSet) {
    this.set = set;
  }

  /** pflag's FlagSet.parseArgs with interspersed flags; returns a refusal reason on a parse error. */
  parse(words: readonly string[]): string | undefined {
    let index = 0;
    while (index < words.length) {
      const word = words[index] ?? '';
      index += 1;
      if (word.length < 2 || !word.startsWith('-')) {
        this.args.push(word);
        continue;
      }
      if (word === '--') {
        this.dashAt = this.args.length;
        for (const rest of words.slice(index)) this.args.push(rest);
        return undefined;
      }
      const next = words[index];
      const result = word.startsWith('--') ? this.long(word, next) : this.short(word, next);
      if (typeof result === 'string') return result;
      if (result) index += 1;
    }
    return undefined;
  }

  private record(entry: { spec: FlagSpec; scope: 'local' | 'global' }, written: string, value: string): string | undefined {
    if (entry.spec.type === 'bool' && !boolTexts.has(value)) return `flag ${written} takes true or false, not "${value}"`;
    if (entry.spec.name === 'help' && entry.spec.type === 'bool') this.help = /^(1|t|true)$/i.test(value);
    this.flags.push({ spec: entry.spec, scope: entry.scope, written, value });
    return undefined;
  }

  /** `--name=value`, `--name` (optional value) or `--name value`; returns whether the next word was taken. */
  private long(word: string, next: string | undefined): boolean | string {
    const body = word.slice(2);
    if (body.startsWith('-') || body.startsWith('=')) return `bad flag syntax: ${word}`;
    const equals = body.indexOf('=');
    const name = equals === -1 ? body : body.slice(0, equals);
    const entry = this.set.long(name);
    if (!entry) {
      if (name !== 'help') return `unknown flag --${name}`;
      this.help = true;
      return false;
    }
    return this.longValue(entry, name, equals === -1 ? undefined : body.slice(equals + 1), next);
  }

  private longValue(
    entry: { spec: FlagSpec; scope: 'local' | 'global' },
    name: string,
    inline: string | undefined,
    next: string | undefined,
  ): boolean | string {
    if (inline !== undefined) return this.record(entry, `--${name}`, inline) ?? false;
    if (entry.spec.noOpt) return this.record(entry, `--${name}`, entry.spec.noOpt) ?? false;
    if (next === undefined) return `flag --${name} needs a value`;
    return this.record(entry, `--${name}`, next) ?? true;
  }

  /** pflag's parseShortArg: a cluster of one-letter flags; the first one taking a value takes the rest. */
  private short(word: string, next: string | undefined): boolean | string {
    if (word.startsWith('-test.')) return `unsupported flag ${word}`;
    let position = 1;
    while (position < word.length) {
      const letter = word.charAt(position);
      const entry = this.set.short(letter);
      if (!entry) {
        if (letter !== 'h') return `unknown shorthand flag -${letter} in ${word}`;
        this.help = true;
        position += 1;
        continue;
      }
      const taken = this.shortValue(entry, word, position, next);
      if (typeof taken === 'string') return taken;
      if (taken.end) return taken.usedNext;
      position += 1;
    }
    return false;
  }

  /** The value of the one-letter flag at `position`: `-n=x`, optional value, `-nx` or `-n x`. */
  private shortValue(
    entry: { spec: FlagSpec; scope: 'local' | 'global' },
    word: string,
    position: number,
    next: string | undefined,
  ): string | { end: boolean; usedNext: boolean } {
    const letter = word.charAt(position);
    const remaining = word.length - position;
    let result = { end: true, usedNext: false };
    let value: string;
    if (remaining > 2 && word.charAt(position + 1) === '=') value = word.slice(position + 2);
    else if (entry.spec.noOpt) {
      value = entry.spec.noOpt;
      result = { end: false, usedNext: false };
    } else if (remaining > 1) value = word.slice(position + 1);
    else if (next !== undefined) {
      value = next;
      result = { end: true, usedNext: true };
    } else return `flag -${letter} needs a value`;
    return this.record(entry, `-${letter}`, value) ?? result;
  }
}

/** The command spec of a path (`['rollout', 'status']`), or undefined. */
export function kubectlCommand(path: readonly string[]): CommandSpec | undefined {
  return kubectlFlagTable.commands[path.join(' ')];
}

/** Child command names of a path (aliases included). */
export function kubectlChildren(path: readonly string[]): string[] {
  let node: CommandNode | undefined = tree;
  for (const name of path) node = node?.children.get(name);
  return node ? [...node.children.keys()] : [];
}

/**
 * Reads kubectl arguments (argv without the program) exactly as kubectl 1.36 does: cobra finds the
 * command by its first non-flag words, then pflag parses the rest with that command's flags and the
 * global ones (`--flag=value`, `--flag value`, `-nprod`, `-n=prod`, clustered booleans, `_` read as
 * `-`, `--` ends flags). A word kubectl would reject (unknown flag, missing value) is a refusal here.
 */
export function parseKubectl(args: readonly string[]): KubectlParse {
  const { node, rest } = findCommand(args);
  const parser = new FlagParser(node.flags);
  const problem = parser.parse(rest);
  if (problem !== undefined) return { ok: false, reason: problem };
  const line: KubectlCommandLine = { path: node.path, flags: parser.flags, args: parser.args, dashAt: parser.dashAt, help: parser.help };
  if (node.path.length === 0 && commandWords(rest, node.flags).length + line.args.length > 0) {
    const word = commandWords(rest, node.flags)[0] ?? line.args[0] ?? '';
    return { ok: false, reason: `"${word}" is not a kubectl command (kubectl would look for a plugin "kubectl-${word}"; plugins are not allowed)` };
  }
  return { ok: true, line };
}

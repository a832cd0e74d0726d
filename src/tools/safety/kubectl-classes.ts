import { kubectlChildren, parseKubectl, type FlagUse, type KubectlCommandLine } from './kubectl-grammar.js';
import { kubectlPatternTexts } from './kubectl-pattern-texts.js';
import { rawPathRefusal, rawPatternTexts, rawRequestOf, rawVerdict } from './kubectl-raw.js';
import { commandRules, flagRule } from './kubectl-rules.js';
import { checkFlagValue, checkPositionals, localPathsOf, type ValueCheck } from './kubectl-values.js';
import type { PathContext } from './local-paths.js';
import { combineVerdicts, verdict } from './severity.js';
import type { ShellWord, Verdict } from './types.js';

/** The class of a kubectl command, the reason it is refused (if it is) and texts for the blocked patterns. */
export interface KubectlFinding {
  verdict: Verdict;
  patternTexts: string[];
}

const truthy = /^(1|t|true)$/i;
/** A dynamic word's stand-in while parsing: NUL never occurs in a real argument. */
const placeholder = (index: number): string => `\u0000${index}\u0000`;

/** The last value of a flag (kubectl keeps the last one of a repeated scalar flag). */
export function lastValue(line: KubectlCommandLine, name: string): string | undefined {
  let value: string | undefined;
  for (const flag of line.flags) if (flag.spec.name === name) value = flag.value;
  return value;
}

/** kubectl's GetDryRunStrategy on the effective (last) `--dry-run`: client, server, or none. */
export function dryRunOf(line: KubectlCommandLine): 'client' | 'server' | 'none' {
  const value = lastValue(line, 'dry-run');
  if (value === undefined || value === 'none' || /^(0|f|false)$/i.test(value)) return 'none';
  if (value === 'server') return 'server';
  return value === 'client' || value === 'unchanged' || truthy.test(value) ? 'client' : 'none';
}

function flagIsOn(line: KubectlCommandLine, name: string): boolean {
  const value = lastValue(line, name);
  return value !== undefined && truthy.test(value);
}

function refusal(reason: string): Verdict {
  return { type: 'dangerous', warnings: [`refused: ${reason}`], refusal: reason };
}

/** The class a command's flags give it: delete and drain are dangerous, `run -i` interactive... */
function modifiedClass(name: string, line: KubectlCommandLine): Verdict | undefined {
  if (name === 'delete') return verdict('dangerous', 'deletes resources');
  if (name === 'drain') return verdict('dangerous', 'drains a node (evicts its pods)');
  if (name === 'replace' && flagIsOn(line, 'force')) return verdict('dangerous', 'replace --force deletes and re-creates resources');
  if (name === 'apply' && flagIsOn(line, 'prune')) return verdict('dangerous', 'apply --prune deletes resources');
  if (name === 'run' && ['stdin', 'tty', 'attach'].some((flag) => flagIsOn(line, flag))) return verdict('interactive', 'opens an interactive session');
  return undefined;
}

function baseClass(line: KubectlCommandLine): Verdict {
  const name = line.path.join(' ');
  const rule = commandRules[name];
  if (!rule) return refusal(`kubectl ${name} is not on the kubectl command allowlist`);
  if ('refuse' in rule) return refusal(rule.refuse);
  const before = line.dashAt === -1 ? line.args : line.args.slice(0, line.dashAt);
  const word = before[0];
  if (word !== undefined && kubectlChildren(line.path).length > 0) {
    return refusal(`"kubectl ${name} ${word}" is not a kubectl command (kubectl would print help or look for a plugin; plugins are not allowed)`);
  }
  const modified = modifiedClass(name, line);
  if (modified) return modified;
  return rule.class === 'interactive' ? verdict('interactive', `kubectl ${name} is interactive`) : verdict(rule.class);
}

interface DynamicWords {
  texts: string[];
  /** Placeholder → the word (for run-time words of a bash line). */
  words: Map<string, ShellWord>;
}

/** Stands in a placeholder for each run-time word that is not a flag word itself. */
function withPlaceholders(args: readonly ShellWord[]): DynamicWords {
  const words = new Map<string, ShellWord>();
  const texts = args.map((word, index) => {
    if (!word.dynamic || word.text.startsWith('-')) return word.text;
    const stand = placeholder(index);
    words.set(stand, word);
    return stand;
  });
  return { texts, words };
}

function dynamicVerdicts(line: KubectlCommandLine, dynamic: DynamicWords, args: readonly ShellWord[]): Verdict[] {
  const found: Verdict[] = [];
  const unsure = (why: string): Verdict => verdict('unknown', `kubectl argument computed at run time ${why}`);
  for (const arg of line.args) if (dynamic.words.has(arg)) found.push(unsure('could be any flag'));
  for (const flag of line.flags) {
    const word = dynamic.words.get(flag.value);
    const rule = flagRule(line.path, flag.spec.name, flag.scope);
    if (word && (word.split === true || rule !== 'allow')) found.push(unsure(`as the value of ${flag.written}`));
  }
  for (const word of args) if (word.dynamic && word.text.startsWith('-')) found.push(unsure('inside a flag'));
  return found;
}

function restore(value: string, dynamic: DynamicWords): string {
  return dynamic.words.get(value)?.text ?? value;
}

function flagVerdicts(line: KubectlCommandLine, context: PathContext, dynamic: DynamicWords): Verdict[] {
  const raw = rawRequestOf(line);
  // A path computed at run time is classified as unknown (dynamicVerdicts); a written one must be sent as written.
  const rawRefused = raw && !dynamic.words.has(raw.path) ? rawPathRefusal(raw.path) : undefined;
  if (rawRefused) return [refusal(rawRefused)];
  const found: Verdict[] = [];
  for (const flag of line.flags) {
    if (dynamic.words.has(flag.value)) continue;
    const rule = flagRule(line.path, flag.spec.name, flag.scope);
    const check: ValueCheck = checkFlagValue(rule, flag as FlagUse, line, context);
    if (check.refusal) return [refusal(check.refusal)];
    if (check.writes) found.push(verdict('write', `${flag.written} writes local files`));
  }
  return found;
}

/**
 * The command's own class: a `--raw` request by its HTTP method (never a dry run: kubectl ignores
 * `--dry-run` with `--raw`), else a write or dangerous command whose effective `--dry-run` is
 * client or server is read.
 */
function commandVerdict(line: KubectlCommandLine, base: Verdict): Verdict {
  const raw = rawRequestOf(line);
  if (raw) return combineVerdicts([base, rawVerdict(raw)]);
  const changes = base.type === 'write' || base.type === 'dangerous';
  return changes && dryRunOf(line) !== 'none' ? verdict('read', `dry run (${dryRunOf(line)})`) : base;
}

/**
 * Classifies kubectl arguments (argv without the program) with kubectl's own grammar: refused
 * (`verdict.refusal`) when kubectl would reject the line, when a flag or command is not on the
 * allowlist, or when a local file lies outside the files root; otherwise the command's class.
 * A write or dangerous command whose effective (last) `--dry-run` is client or server is read,
 * unless it sends `--raw` (classified by its HTTP method; blocked patterns see its path).
 */
export function classifyKubectl(args: readonly ShellWord[], context: PathContext): KubectlFinding {
  const dynamic = withPlaceholders(args);
  const parsed = parseKubectl(dynamic.texts);
  if (!parsed.ok) return { verdict: refusal(parsed.reason), patternTexts: [] };
  const { line } = parsed;
  const texts = kubectlPatternTexts({ ...line, args: line.args.map((arg) => restore(arg, dynamic)) });
  if (!texts) return { verdict: refusal('too many resource type × name combinations to check against the blocked patterns'), patternTexts: [] };
  const raw = rawRequestOf(line);
  const patternTexts = raw ? [...texts, ...rawPatternTexts({ ...raw, path: restore(raw.path, dynamic) })] : texts;
  const base = baseClass(line);
  if (base.refusal) return { verdict: base, patternTexts };
  const flags = flagVerdicts(line, context, dynamic);
  const refused = flags.find((found) => found.refusal !== undefined);
  if (refused) return { verdict: refused, patternTexts };
  const positional = checkPositionals(line, context, dynamic.words);
  if (positional.refusal) return { verdict: refusal(positional.refusal), patternTexts };
  const parts = [commandVerdict(line, base), ...flags, ...dynamicVerdicts(line, dynamic, args)];
  if (positional.writes) parts.push(verdict('write', 'writes local files'));
  return { verdict: combineVerdicts(parts), patternTexts };
}

/** The kubectl tool's check before it runs: a refusal, or the local paths to confine (symlinks resolved by the caller). */
export type KubectlArgumentCheck = { ok: true; read: string[]; write: string[] } | { ok: false; reason: string };

/** Checks a kubectl argv (no program name) as the analysis does; for the kubectl tool's own guard. */
export function checkKubectlArguments(argv: readonly string[], context: PathContext): KubectlArgumentCheck {
  const found = classifyKubectl(
    argv.map((text) => ({ text, dynamic: false })),
    context,
  );
  if (found.verdict.refusal !== undefined) return { ok: false, reason: found.verdict.refusal };
  const parsed = parseKubectl(argv);
  if (!parsed.ok) return { ok: false, reason: parsed.reason };
  const { line } = parsed;
  return { ok: true, ...localPathsOf(line, (flag) => flagRule(line.path, flag.spec.name, flag.scope)) };
}

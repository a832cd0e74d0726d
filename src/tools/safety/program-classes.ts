import path from 'node:path';
import { classifyHelm } from './helm-classes.js';
import { classifyKubectlCommand } from './kubectl-refused-class.js';
import { sedScriptEffect } from './sed-script.js';
import type { PathContext } from './local-paths.js';
import { firstOperandIndex, hasFlag, hasShortLetter, type OptionGrammar } from './option-scan.js';
import { combineVerdicts, verdict } from './severity.js';
import type { ShellWord, Verdict } from './types.js';
import { classifyVariableBuiltin } from './variable-builtins.js';

/** What the program classifier needs from its caller. */
export interface ProgramContext {
  readonlyPrograms: ReadonlySet<string>;
  /** Where local files named by kubectl may be. */
  paths: PathContext;
  /** The command runs once per input item (`xargs`, `find -exec`). */
  massExecution: boolean;
  /** Classifies a command that the program runs for each item (`find -exec`). */
  classifyEach(argv: ShellWord[]): Verdict;
}

/** A program's verdict plus extra texts the blocked patterns should see. */
export interface ProgramFinding {
  verdict: Verdict;
  patternTexts: string[];
}

/** Shell builtins without effects outside the shell itself. */
const harmlessBuiltins = new Set([
  'cd',
  'pushd',
  'popd',
  'dirs',
  ':',
  'true',
  'false',
  'test',
  '[',
  'pwd',
  'type',
  'hash',
  'shift',
  'set',
  'unset',
  'read',
  'wait',
  'sleep',
  'exit',
  'return',
  'break',
  'continue',
  'getopts',
  'echo',
  'printf',
  'jobs',
]);
/** Programs that run code given to them: at least write, never an automatic read. */
const interpreters = new Set([
  'perl',
  'python',
  'python3',
  'node',
  'nodejs',
  'ruby',
  'php',
  'lua',
  'tclsh',
  'Rscript',
  'deno',
  'bun',
  'osascript',
  'expect',
  'busybox',
  'trap',
  'enable',
  'alias',
]);
const diskWipers = new Set(['mkfs', 'wipefs', 'shred', 'fdisk', 'sfdisk', 'parted', 'mkswap']);
const machineStoppers = new Set(['reboot', 'shutdown', 'halt', 'poweroff']);
const harmlessFiles = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);

function readOrUnknown(name: string, context: ProgramContext): Verdict {
  return context.readonlyPrograms.has(name) ? verdict('read') : verdict('unknown', `"${name}" is not a known read-only program`);
}

function removalTargets(args: readonly ShellWord[]): string[] {
  const end = args.findIndex((word) => word.text === '--');
  const before = end === -1 ? args : args.slice(0, end);
  const after = end === -1 ? [] : args.slice(end + 1);
  const targets = [...before.filter((word) => !word.text.startsWith('-')), ...after];
  return targets.map((word) => (word.dynamic ? word.text : path.posix.normalize(word.text)));
}

/** `rm`: recursive is dangerous, plain is write (dangerous when run per piped item). */
function classifyRemove(args: readonly ShellWord[], context: ProgramContext): ProgramFinding {
  const recursive = hasShortLetter(args, 'rR') || hasFlag(args, '--recursive');
  const force = hasShortLetter(args, 'f') || hasFlag(args, '--force');
  const targets = removalTargets(args);
  const flags = recursive ? `-r${force ? 'f' : ''} ` : '';
  const patternTexts = [`rm ${flags}${targets.join(' ')}`];
  if (recursive) return { verdict: verdict('dangerous', force ? 'recursive forced removal' : 'recursive removal'), patternTexts };
  if (context.massExecution) return { verdict: verdict('dangerous', 'removes files named by piped input'), patternTexts };
  return { verdict: verdict('write', 'removes files'), patternTexts };
}

function execSegments(args: readonly ShellWord[]): ShellWord[][] {
  const segments: ShellWord[][] = [];
  let current: ShellWord[] | undefined;
  for (const word of args) {
    if (current && (word.text === ';' || word.text === '+')) {
      segments.push(current);
      current = undefined;
    } else if (current) current.push(word);
    else if (/^-(exec|execdir|ok|okdir)$/.test(word.text)) current = [];
  }
  if (current) segments.push(current);
  return segments;
}

/** `find`: `-delete` is dangerous, `-fprint*` writes, `-exec` runs its command per match. */
function classifyFind(args: readonly ShellWord[], context: ProgramContext): Verdict {
  const words = args.map((word) => word.text);
  if (words.includes('-delete')) return verdict('dangerous', 'find -delete removes matching files');
  const segments = execSegments(args);
  const parts = [readOrUnknown('find', context), ...segments.map((segment) => context.classifyEach(segment))];
  if (segments.length > 0) parts.push(verdict('write', 'find -exec runs a command per file'));
  if (words.some((word) => /^-(fprint|fprint0|fprintf|fls)$/.test(word))) parts.push(verdict('write', 'find writes files'));
  return combineVerdicts(parts);
}

const awkGrammar: OptionGrammar = { valueOptions: new Set(['-F', '-v', '-f', '--field-separator', '--assign', '--file']) };

/** An awk statement (split at `;`, `{`, `}`, newlines) with `print`/`printf` followed by `>`: output to a file. Linear. */
function awkWritesFiles(program: string): boolean {
  return program.split(/[;{}\n]/).some((statement) => {
    const print = statement.search(/\bprint/);
    return print !== -1 && statement.indexOf('>', print) !== -1;
  });
}

/** awk may run commands (`system()`, pipes) or write files (`print > file`). */
function classifyAwk(name: string, args: readonly ShellWord[], context: ProgramContext): Verdict {
  if (hasFlag(args, '-f', '--file')) return verdict('write', 'runs an awk program file');
  const program = args[firstOperandIndex(args, awkGrammar)]?.text ?? '';
  if (program.includes('system') || program.includes('|')) return verdict('write', 'awk program may run commands');
  if (awkWritesFiles(program)) return verdict('write', 'awk program writes files');
  return readOrUnknown(name, context);
}

const sedGrammar: OptionGrammar = { valueOptions: new Set(['-e', '-f', '--expression', '--file', '-l', '--line-length']) };

/** sed: `-i` edits files; `-f` runs a script file; `e` and `w` commands run programs or write files. */
function classifySed(args: readonly ShellWord[], context: ProgramContext): Verdict | undefined {
  if (hasFlag(args, '--sandbox')) return undefined;
  if (hasFlag(args, '-f', '--file') || args.some((word) => /^-[a-zA-Z]*f/.test(word.text))) return verdict('write', 'runs a sed script file');
  const scripts: string[] = [];
  args.forEach((word, index) => {
    if (word.text === '-e' || word.text === '--expression') scripts.push(args[index + 1]?.text ?? '');
    else if (word.text.startsWith('--expression=')) scripts.push(word.text.slice('--expression='.length));
    else if (/^-[a-zA-Z]*e./.test(word.text)) scripts.push(word.text.slice(word.text.indexOf('e') + 1));
  });
  if (scripts.length === 0) scripts.push(args[firstOperandIndex(args, sedGrammar)]?.text ?? '');
  const effect = scripts.map(sedScriptEffect).find((found) => found !== undefined);
  if (effect) return verdict('write', effect);
  return context.readonlyPrograms.has('sed') ? undefined : verdict('unknown', '"sed" is not a known read-only program');
}

/** `uniq IN OUT` writes OUT. */
function uniqWrites(args: readonly ShellWord[]): boolean {
  return args.filter((word) => !word.text.startsWith('-')).length >= 2;
}

function writesInPlace(name: string, args: readonly ShellWord[]): boolean {
  const words = args.map((word) => word.text);
  if (name === 'sed') return hasShortLetter(args, 'i') || hasFlag(args, '--in-place') || words.some((word) => word.startsWith('-i'));
  if (name === 'uniq') return uniqWrites(args);
  if (name === 'yq') return hasShortLetter(args, 'i') || hasFlag(args, '--inplace');
  if (name === 'sort') return hasFlag(args, '-o', '--output') || words.some((word) => /^-o./.test(word));
  if (name === 'date') return hasFlag(args, '-s', '--set');
  return false;
}

function classifyTee(args: readonly ShellWord[]): Verdict {
  const files = args.filter((word) => !word.text.startsWith('-') && !harmlessFiles.has(word.text));
  return files.length > 0 ? verdict('write', 'writes files (tee)') : verdict('read');
}

function classifyDiskTool(name: string, args: readonly ShellWord[]): Verdict | undefined {
  if (diskWipers.has(name) || name.startsWith('mkfs.')) return verdict('dangerous', 'formats or wipes a disk or file');
  if (machineStoppers.has(name)) return verdict('dangerous', 'stops or restarts the machine');
  if (name === 'dd' && args.some((word) => word.text.startsWith('of='))) return verdict('dangerous', 'dd writes raw data');
  if (name === 'dd') return verdict('write', 'dd copies raw data');
  return undefined;
}

/** Programs that run code or change what a name runs. */
function classifyExecutor(name: string, args: readonly ShellWord[]): Verdict | undefined {
  if (interpreters.has(name) || /^(python|perl|ruby|node|php|lua)[0-9.]*$/.test(name)) return verdict('write', `${name} runs code`);
  if (name === 'hash' && args.some((word) => /^-[a-zA-Z]*p/.test(word.text))) return verdict('write', 'hash -p sets where a program name leads');
  return undefined;
}

function classifyTextTool(name: string, args: readonly ShellWord[], context: ProgramContext): Verdict | undefined {
  if (name === 'find') return classifyFind(args, context);
  if (name === 'tee') return classifyTee(args);
  if (name === 'awk' || name === 'gawk' || name === 'mawk' || name === 'nawk') return classifyAwk(name, args, context);
  if (writesInPlace(name, args)) return verdict('write', `${name} writes files`);
  if (name === 'sed') return classifySed(args, context) ?? verdict('read');
  return undefined;
}

function classifyOther(name: string, args: readonly ShellWord[], context: ProgramContext): Verdict {
  const special = classifyDiskTool(name, args) ?? classifyTextTool(name, args, context) ?? classifyExecutor(name, args) ?? classifyVariableBuiltin(name, args);
  if (special) return special;
  if (harmlessBuiltins.has(name)) return verdict('read');
  return readOrUnknown(name, context);
}

/** Classifies one simple command whose wrappers (`sudo`, `env`, `xargs`...) are already removed. */
export function classifyProgram(name: string, args: readonly ShellWord[], context: ProgramContext): ProgramFinding {
  if (name === 'kubectl') return classifyKubectlCommand(args, context.paths);
  if (name === 'helm') return { verdict: classifyHelm(args), patternTexts: [] };
  if (name === 'rm') return classifyRemove(args, context);
  return { verdict: classifyOther(name, args, context), patternTexts: [] };
}

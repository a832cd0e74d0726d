import { firstOperandIndex, programName, type OptionGrammar } from './option-scan.js';
import { verdict } from './severity.js';
import type { CommandClass, ShellWord, Verdict } from './types.js';

/** What unwrapping one wrapper program (`sudo`, `env`, `xargs`, `bash -c`...) gives. */
export interface UnwrapStep {
  /** The wrapped command's argv (empty when the wrapper runs nothing more). */
  inner: ShellWord[];
  /** A shell script the wrapper runs, to parse again (`bash -c`, `eval`, `watch`). */
  script?: string;
  /** A final verdict: the wrapper's effect is known without looking further. */
  final?: Verdict;
  /** The class at least (for `sudo`). */
  floor?: CommandClass;
  warning?: string;
  /** The inner command runs once per input item (`xargs`). */
  massExecution?: boolean;
}

/** Where the wrapped command comes from. */
export interface WrapperInput {
  pipeFed: boolean;
  stdinText?: string;
  massExecution: boolean;
}

const grammar = (...valueOptions: string[]): OptionGrammar => ({ valueOptions: new Set(valueOptions) });

/** Wrappers whose argv is `wrapper [options] command...`. */
const prefixWrappers: Record<string, OptionGrammar> = {
  sudo: grammar('-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-T', '--user', '--group', '--chdir', '--prompt'),
  doas: grammar('-u', '-C'),
  nice: grammar('-n', '--adjustment'),
  nohup: grammar(),
  ionice: grammar('-c', '-n', '-p', '--class', '--classdata'),
  stdbuf: grammar('-i', '-o', '-e'),
  setsid: grammar(),
  time: grammar('-f', '-o', '--format', '--output'),
  command: grammar(),
  builtin: grammar(),
  exec: grammar('-a'),
  xargs: grammar(
    '-I',
    '-n',
    '-P',
    '-L',
    '-s',
    '-d',
    '-E',
    '-a',
    '--max-args',
    '--max-procs',
    '--arg-file',
    '--delimiter',
    '--max-lines',
    '--max-chars',
    '--replace',
    '--eof',
  ),
};

/** Builtins and programs that run another program by name: at least write (they bypass functions, aliases or the class of the wrapper). */
const executors = new Set(['command', 'builtin', 'exec']);

const shells = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'ash', 'mksh']);
const shellGrammar = grammar('-o', '+o', '-O', '+O', '--rcfile', '--init-file');

function texts(words: readonly ShellWord[]): string[] {
  return words.map((word) => word.text);
}

function unwrapPrefix(name: string, args: ShellWord[]): UnwrapStep {
  const inner = args.slice(firstOperandIndex(args, prefixWrappers[name] ?? grammar()));
  if (name === 'sudo' || name === 'doas') {
    return { inner, floor: 'write', warning: 'runs with elevated privileges (sudo)' };
  }
  if (name === 'command' && texts(args).some((word) => /^-[a-zA-Z]*[vV]/.test(word))) {
    return { inner: [], final: verdict('read') };
  }
  if (name === 'xargs') {
    if (inner.length === 0) return { inner: [{ text: 'echo', dynamic: false }], massExecution: true };
    return { inner, massExecution: true, floor: 'write', warning: 'xargs runs a program per input item' };
  }
  if (executors.has(name) && inner.length > 0) return { inner, floor: 'write', warning: `${name} runs another program` };
  return { inner };
}

const environmentValueOptions = new Set(['-u', '-C', '--unset', '--chdir']);

/** Words an `env` option or assignment takes (0 when the word starts the command). */
function environmentWordWidth(word: string): number {
  if (environmentValueOptions.has(word)) return 2;
  return word.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(word) ? 1 : 0;
}

function unwrapEnvironment(args: ShellWord[]): UnwrapStep {
  let index = 0;
  while (index < args.length) {
    const word = args[index]?.text ?? '';
    if (word === '-S' || word === '--split-string' || /^-[a-zA-Z]*S/.test(word)) {
      return { inner: [], script: texts(args.slice(index + 1)).join(' '), floor: 'write', warning: 'env -S runs a command line' };
    }
    const width = environmentWordWidth(word);
    if (width === 0) break;
    index += width;
  }
  const inner = args.slice(index);
  return inner.length > 0 ? { inner, floor: 'write', warning: 'env runs a program with a changed environment' } : { inner };
}

function unwrapTimeout(args: ShellWord[]): UnwrapStep {
  const durationIndex = firstOperandIndex(args, grammar('-s', '-k', '--signal', '--kill-after'));
  return { inner: args.slice(durationIndex + 1) };
}

function unwrapWatch(args: ShellWord[]): UnwrapStep {
  const start = firstOperandIndex(args, grammar('-n', '--interval', '-q', '--equexit'));
  const rest = args.slice(start);
  const direct = texts(args.slice(0, start)).some((word) => word === '-x' || word === '--exec' || /^-[a-zA-Z]*x/.test(word));
  return direct ? { inner: rest } : { inner: [], script: texts(rest).join(' ') };
}

/** `bash -c script`, `bash script.sh`, `bash <<EOF`, `... | bash`. */
function unwrapShell(args: ShellWord[], input: WrapperInput): UnwrapStep {
  const start = firstOperandIndex(args, shellGrammar);
  const commandOption = texts(args.slice(0, start)).some((word) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(word));
  const operand = args[start];
  if (commandOption) {
    if (!operand) return { inner: [], final: verdict('dangerous', 'shell -c without a script') };
    if (operand.dynamic) return { inner: [], final: verdict('dangerous', 'shell script is computed at run time') };
    return { inner: [], script: operand.text, floor: 'write', warning: 'runs a shell' };
  }
  if (operand) return { inner: [], final: verdict(input.massExecution ? 'dangerous' : 'write', 'runs a shell script file') };
  if (input.stdinText !== undefined) return { inner: [], script: input.stdinText, floor: 'write', warning: 'runs a shell' };
  if (input.pipeFed || input.massExecution) return { inner: [], final: verdict('dangerous', 'runs piped input as a shell script') };
  return { inner: [], final: verdict('interactive', 'starts an interactive shell') };
}

function unwrapEval(args: ShellWord[]): UnwrapStep {
  if (args.some((word) => word.dynamic)) return { inner: [], final: verdict('dangerous', 'eval of text computed at run time') };
  return { inner: [], script: texts(args).join(' '), floor: 'write', warning: 'eval runs text as commands' };
}

/**
 * Unwraps one wrapper program, or returns undefined when `argv[0]` is not a wrapper.
 * `source`/`.` run script files the analyzer cannot see: unknown.
 */
export function unwrapCommand(argv: readonly ShellWord[], input: WrapperInput): UnwrapStep | undefined {
  const [program, ...args] = argv;
  if (!program) return undefined;
  const name = programName(program);
  if (name in prefixWrappers) return unwrapPrefix(name, args);
  if (name === 'env') return unwrapEnvironment(args);
  if (name === 'timeout') return unwrapTimeout(args);
  if (name === 'watch') return unwrapWatch(args);
  if (name === 'eval') return unwrapEval(args);
  if (shells.has(name)) return unwrapShell(args, input);
  if (name === 'source' || name === '.') return { inner: [], final: verdict('write', 'runs a shell script file') };
  return undefined;
}

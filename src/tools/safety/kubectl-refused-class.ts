import { classifyKubectl, type KubectlFinding } from './kubectl-classes.js';
import { parseKubectl, type KubectlCommandLine } from './kubectl-grammar.js';
import { commandRules, flagRule } from './kubectl-rules.js';
import { checkFlagValue } from './kubectl-values.js';
import type { PathContext } from './local-paths.js';
import { verdict } from './severity.js';
import type { ShellWord, Verdict } from './types.js';

/*
 * A refusal says a command may not run; the class says what the command is (issue 26: a refused `get` is
 * a read, `port-forward` interactive, `apply -f` outside the files root a write). The class of a refused
 * command is found by classifying it again without what was refused, with the same rules as any command.
 */

/** The argv of a parsed command with only the flags that pass their rule (`--name=value`), positionals kept or not. */
function withoutRefusedFlags(line: KubectlCommandLine, context: PathContext, keepPositionals: boolean): ShellWord[] {
  const flags = line.flags
    .filter((flag) => checkFlagValue(flagRule(line.path, flag.spec.name, flag.scope), flag, line, context).refusal === undefined)
    .map((flag) => `--${flag.spec.name}=${flag.value}`);
  const before = line.dashAt === -1 ? line.args : line.args.slice(0, line.dashAt);
  const after = line.dashAt === -1 ? [] : ['--', ...line.args.slice(line.dashAt)];
  const positionals = keepPositionals ? [...before, ...after] : [];
  return [...line.path, ...flags, ...positionals].map((text) => ({ text, dynamic: false }));
}

/** What a refused kubectl command is: its class without the refused flags (then without its arguments), or its command's class. */
function refusedClass(args: readonly ShellWord[], context: PathContext): Verdict {
  const parsed = parseKubectl(args.map((word) => word.text));
  if (!parsed.ok) return verdict('unknown');
  const rule = commandRules[parsed.line.path.join(' ')];
  if (!rule) return verdict('unknown', 'not a kubectl command (kubectl would look for a plugin)');
  if ('refuse' in rule) return verdict(rule.class);
  for (const keepPositionals of [true, false]) {
    const found = classifyKubectl(withoutRefusedFlags(parsed.line, context, keepPositionals), context);
    if (found.verdict.refusal === undefined) return found.verdict;
  }
  return verdict(rule.class);
}

/**
 * {@link classifyKubectl}, with a refused command carrying the class of what it is (not `dangerous` for
 * every refusal); `verdict.refusal` still says it may not run.
 */
export function classifyKubectlCommand(args: readonly ShellWord[], context: PathContext): KubectlFinding {
  const found = classifyKubectl(args, context);
  const { refusal, warnings } = found.verdict;
  if (refusal === undefined) return found;
  const what = refusedClass(args, context);
  return { ...found, verdict: { type: what.type, warnings: [...warnings, ...what.warnings], refusal } };
}

import { evaluationReasons, numberLiteral } from './shell-evaluations.js';
import { verdict } from './severity.js';
import type { ShellWord, Verdict } from './types.js';

/*
 * Builtins that evaluate arithmetic (`let`, `test -eq`) or take variable NAMES: a name with a subscript
 * (`unset 'a[$(cmd)]'`, `read 'a[$(cmd)]'`, `printf -v 'a[$(cmd)]'`) has the subscript evaluated as
 * arithmetic, which runs the command substitutions in it. The shell parser sees these only when the
 * builtin is written literally (`declare`, `let`, `[[`); these checks see the argv after quoting and
 * wrappers, so `"declare" -n`, `\let` and `builtin unset` are judged the same.
 */

/** A name bash will look up or assign: static text without a subscript (`name` or `name=value`). */
function plainName(word: ShellWord | undefined): boolean {
  if (!word) return true;
  const name = word.text.split('=')[0] ?? '';
  return !/[[$`]/.test(name) && !(word.dynamic && !word.text.includes('='));
}

const plainNumber = (word: ShellWord | undefined): boolean => word !== undefined && !word.dynamic && numberLiteral.test(word.text);

/** Operands of the options that take a value, per builtin (everything else that is not an option is a name). */
const valueOptions: Record<string, RegExp> = {
  read: /^-[a-zA-Z]*[pdtnNui]$/,
  mapfile: /^-[a-zA-Z]*[dnOsuCc]$/,
  readarray: /^-[a-zA-Z]*[dnOsuCc]$/,
};
const namingBuiltins = new Set(['unset', 'read', 'mapfile', 'readarray', 'declare', 'typeset', 'local', 'export', 'readonly']);

/** The words of a naming builtin that are variable names (option values skipped). */
function namesOf(name: string, args: readonly ShellWord[]): ShellWord[] {
  const takesValue = valueOptions[name];
  const names: ShellWord[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const word = args[index] as ShellWord;
    if (takesValue?.test(word.text)) index += 1;
    else if (!/^[-+]/.test(word.text)) names.push(word);
  }
  return names;
}

/** `declare/typeset/local -i` (assignments are arithmetic) and `-n` (name references). */
function evaluatingOptions(name: string, args: readonly ShellWord[]): boolean {
  if (!['declare', 'typeset', 'local'].includes(name)) return false;
  return args.some((word) => word.dynamic || /^-[a-zA-Z]*[in]/.test(word.text));
}

/** `test`/`[`: operands of -eq... must be numbers; the operand of -v/-R a plain name. */
function testEvaluates(args: readonly ShellWord[]): string | undefined {
  for (let index = 0; index < args.length; index += 1) {
    const operator = args[index]?.text ?? '';
    if (/^-(eq|ne|lt|le|gt|ge)$/.test(operator) && !(plainNumber(args[index - 1]) && plainNumber(args[index + 1]))) return evaluationReasons.arithmetic;
    if (/^-[vR]$/.test(operator) && !plainName(args[index + 1])) return evaluationReasons.variableTest;
  }
  return undefined;
}

/** The name argument of `printf -v NAME`, `getopts OPTSTRING NAME`, `wait -p NAME`. */
function namedOperand(name: string, args: readonly ShellWord[]): ShellWord | undefined {
  if (name === 'getopts') return args[1];
  const flag = name === 'printf' ? 'v' : name === 'wait' ? 'p' : undefined;
  if (!flag) return undefined;
  const index = args.findIndex((word) => word.text.startsWith(`-${flag}`));
  if (index === -1) return undefined;
  const glued = args[index]?.text.slice(2) ?? '';
  return glued === '' ? args[index + 1] : { text: glued, dynamic: args[index]?.dynamic === true };
}

/** At least write when a builtin would evaluate a name's subscript or a value as arithmetic; undefined otherwise. */
export function classifyVariableBuiltin(name: string, args: readonly ShellWord[]): Verdict | undefined {
  if (name === 'let') return args.every(plainNumber) ? undefined : verdict('write', evaluationReasons.arithmetic);
  if (name === 'test' || name === '[') {
    const reason = testEvaluates(args);
    return reason === undefined ? undefined : verdict('write', reason);
  }
  if (evaluatingOptions(name, args)) return verdict('write', evaluationReasons.declaration);
  const names = namingBuiltins.has(name) ? namesOf(name, args) : [namedOperand(name, args)];
  return names.every(plainName) ? undefined : verdict('write', evaluationReasons.subscript);
}

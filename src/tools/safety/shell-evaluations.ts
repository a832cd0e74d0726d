import type { ShellNode } from 'mvdan-sh';
import { shellSyntax } from './shell-module.js';

/*
 * Places where bash evaluates TEXT as code that the syntax tree does not show: arithmetic evaluates a
 * variable's value as an expression (recursively), and an array subscript in that value
 * (`x='a[$(cmd)]'; (( x ))`) runs command substitutions. Indirect expansion and name references do
 * the same with a name. Anything here that is not a plain number is reported (the line is then at
 * least `write`: it asks). ADR 0004 lists the contexts.
 */

/** Why a line is at least `write`: bash evaluates a value the analyzer cannot see. */
export const evaluationReasons = {
  arithmetic: 'arithmetic on a variable or run-time value (bash evaluates the value as an expression; a subscript in it runs commands)',
  subscript: 'array subscript or substring offset with a variable or run-time value (evaluated as arithmetic)',
  indirect: 'indirect expansion ${!name} (the name held in the variable may carry a subscript that runs commands)',
  prompt: 'prompt expansion ${name@P} runs the command substitutions in the value',
  declaration: 'declare -i/-n or a declared name computed at run time (assignments or expansions evaluate text)',
  variableTest: 'test -v of a subscripted or run-time name (the subscript is evaluated as arithmetic)',
} as const;

/** mvdan/sh token numbers of the `[[ ]]` arithmetic comparisons (-eq -ne -le -ge -lt -gt) and of -v/-R. */
const arithmeticComparisons = new Set([116, 117, 118, 119, 120, 121]);
const variableTests = new Set([110, 111]);
/** mvdan/sh token of the `${name@op}` transformation. */
const transformOperator = 84;
/** `${name@op}` operators that only quote, change case or describe: they evaluate nothing. */
const harmlessTransforms = /^[QEAaUuLKk]$/;

/** A number bash reads without looking anything up: decimal, octal, hex, `base#digits`, with an optional sign. */
export const numberLiteral = /^[-+]?(0[xX][0-9a-fA-F]+|[0-9]+(#[0-9a-zA-Z@_]+)?)$/;
/** Special parameters holding numbers the shell sets itself (cannot be assigned). */
const numericSpecials = new Set(['#', '?', '$', '!']);

const typeOf = (node: ShellNode): string => shellSyntax().NodeType(node);
const child = (node: ShellNode, field: string): ShellNode | null => (node[field] as ShellNode | null | undefined) ?? null;

/** A word's text when it is one plain literal (no quotes, no expansions), else ''. */
function literalOf(word: ShellNode | null): string {
  const method = word?.Lit as (() => unknown) | undefined;
  return word && typeOf(word) === 'Word' && typeof method === 'function' ? String(method.call(word)) : '';
}

/** `${#a[@]}`, `${#a[*]}`: the index lists every element (a count, nothing evaluated). */
const listsAll = (index: ShellNode | null): boolean => /^[@*]$/.test(literalOf(index));

/** A `$x` part that is a number whatever the variables hold: `$#`, `$?`, `$$`, `$!`, `${#name}`, `${#a[@]}`. */
function numericParameter(part: ShellNode): boolean {
  const index = child(part, 'Index');
  if (child(part, 'Slice') || child(part, 'Exp') || child(part, 'Repl') || part.Excl === true) return false;
  if (index) return part.Length === true && listsAll(index);
  return part.Length === true || numericSpecials.has(String(child(part, 'Param')?.Value ?? ''));
}

/** A word that arithmetic can take as it is: only number literals and numeric parameters, nothing evaluated again. */
export function plainNumberWord(word: ShellNode): boolean {
  const parts = (word.Parts as ShellNode[] | null) ?? [];
  if (parts.length === 0) return false;
  const literal = parts
    .map((part) => (typeOf(part) === 'Lit' ? String(part.Value) : typeOf(part) === 'ParamExp' && numericParameter(part) ? '0' : '\u0000'))
    .join('');
  return numberLiteral.test(literal);
}

/** True when an arithmetic expression holds anything but numbers and operators (a name, an expansion, quoted text...). */
export function arithmeticEvaluatesText(expression: ShellNode | null): boolean {
  if (!expression) return false;
  let evaluates = false;
  shellSyntax().Walk(expression, (node) => {
    if (!node || evaluates) return false;
    if (typeOf(node) !== 'Word') return true;
    evaluates = !plainNumberWord(node);
    return false;
  });
  return evaluates;
}

/** `${!name}` and `${!name[i]}` look up the name held in a variable; `${!prefix*}` and `${!name[@]}` only list names or keys. */
function indirectRisk(node: ShellNode, listing: boolean): string | undefined {
  return node.Excl === true && Number(node.Names ?? 0) === 0 && !listing ? evaluationReasons.indirect : undefined;
}

function offsetRisk(node: ShellNode, index: ShellNode | null, listing: boolean): string | undefined {
  if (index && !listing && arithmeticEvaluatesText(index)) return evaluationReasons.subscript;
  const slice = child(node, 'Slice');
  if (!slice) return undefined;
  return arithmeticEvaluatesText(child(slice, 'Offset')) || arithmeticEvaluatesText(child(slice, 'Length')) ? evaluationReasons.subscript : undefined;
}

function transformRisk(node: ShellNode): string | undefined {
  const expansion = child(node, 'Exp');
  if (!expansion || Number(expansion.Op) !== transformOperator) return undefined;
  return harmlessTransforms.test(literalOf(child(expansion, 'Word'))) ? undefined : evaluationReasons.prompt;
}

function parameterRisk(node: ShellNode): string | undefined {
  const index = child(node, 'Index');
  const listing = /^[@*]$/.test(literalOf(index));
  return indirectRisk(node, listing) ?? offsetRisk(node, index, listing) ?? transformRisk(node);
}

/** A bare word of a declaration (an option or a name): empty text means quotes or expansions, i.e. computed at run time. */
function bareWordRisk(assign: ShellNode, options: RegExp): boolean {
  if (assign.Naked !== true || child(assign, 'Name')) return false;
  const text = literalOf(child(assign, 'Value'));
  return text === '' || options.test(text) || text.includes('[');
}

function declarationRisk(node: ShellNode): string | undefined {
  const variant = String(child(node, 'Variant')?.Value ?? '');
  // `export -n` un-exports; `declare/local/typeset -n` make a name reference.
  const options = variant === 'export' ? /^-[a-zA-Z]*i/ : /^-[a-zA-Z]*[in]/;
  const risky = variant === 'nameref' || ((node.Args as ShellNode[] | null) ?? []).some((assign) => bareWordRisk(assign, options));
  return risky ? evaluationReasons.declaration : undefined;
}

function testRisk(node: ShellNode, type: string): string | undefined {
  const operator = Number(node.Op);
  if (type === 'BinaryTest' && arithmeticComparisons.has(operator)) {
    const operands = [child(node, 'X'), child(node, 'Y')];
    return operands.some((operand) => operand && (typeOf(operand) !== 'Word' || !plainNumberWord(operand))) ? evaluationReasons.arithmetic : undefined;
  }
  if (type === 'UnaryTest' && variableTests.has(operator)) {
    const text = literalOf(child(node, 'X'));
    return text === '' || text.includes('[') ? evaluationReasons.variableTest : undefined;
  }
  return undefined;
}

function assignmentRisk(node: ShellNode): string | undefined {
  return arithmeticEvaluatesText(child(node, 'Index')) ? evaluationReasons.subscript : undefined;
}

function arithmeticContextRisk(node: ShellNode, type: string): string | undefined {
  const expressions: (ShellNode | null)[] =
    type === 'LetClause'
      ? ((node.Exprs as ShellNode[] | null) ?? [])
      : type === 'CStyleLoop'
        ? [child(node, 'Init'), child(node, 'Cond'), child(node, 'Post')]
        : [child(node, 'X')];
  return expressions.some(arithmeticEvaluatesText) ? evaluationReasons.arithmetic : undefined;
}

const arithmeticContexts = new Set(['ArithmExp', 'ArithmCmd', 'LetClause', 'CStyleLoop']);

/**
 * Why bash would evaluate text of this one node that the syntax tree does not show, or undefined.
 * Call it for every node of a line (it does not look into children that are nodes of their own).
 */
export function evaluationRisk(node: ShellNode): string | undefined {
  const type = typeOf(node);
  if (arithmeticContexts.has(type)) return arithmeticContextRisk(node, type);
  if (type === 'ParamExp') return parameterRisk(node);
  if (type === 'BinaryTest' || type === 'UnaryTest') return testRisk(node, type);
  if (type === 'Assign' || type === 'ArrayElem') return assignmentRisk(node);
  if (type === 'DeclClause') return declarationRisk(node);
  return undefined;
}

import type { ShellNode, ShellParser } from 'mvdan-sh';
import { evaluationRisk } from './shell-evaluations.js';
import { shellSyntax } from './shell-module.js';
import { wordText } from './shell-words.js';
import type { ShellWord, SimpleCommand } from './types.js';

/** mvdan/sh token numbers of the operators the analyzer cares about. */
export const shellOperators = {
  pipe: 12,
  pipeAll: 13,
  redirectOut: 54,
  appendOut: 55,
  redirectIn: 56,
  readWrite: 57,
  duplicateIn: 58,
  duplicateOut: 59,
  clobberOut: 60,
  hereDocument: 61,
  dashHereDocument: 62,
  hereString: 63,
  redirectAll: 64,
  appendAll: 65,
} as const;

/** One redirection of a statement. */
export interface ShellRedirect {
  operator: number;
  target: ShellWord;
  /** The file descriptor written before the operator (`3` of `3<x`, `{fd}` of `{fd}<x`), when there is one. */
  descriptor?: string;
  /** On a plain `exec` (no program): the redirection stays open for the rest of the shell. */
  persistent?: boolean;
}

/** What a command line holds: every simple command (however deeply nested) and every redirection. */
export interface ParsedLine {
  commands: SimpleCommand[];
  redirects: ShellRedirect[];
  /** Names of shell functions that call themselves (the shape of a fork bomb). */
  recursiveFunctions: string[];
  /** Variables set for one command (`NAME=value program`). */
  prefixAssignments: string[];
  /** Variables set in the shell (`NAME=value`, `export NAME=value`, `declare`...). */
  shellAssignments: string[];
  /** Number of process substitutions (`<(...)`, `>(...)`). */
  processSubstitutions: number;
  /** Why bash would evaluate text the tree does not show (arithmetic on variables, `${!x}`, `declare -n`...). */
  evaluations: string[];
}

/** Variable names of `Assign` nodes (declaration words without a name, like `-x`, are skipped). */
function assignedNames(assigns: readonly ShellNode[]): string[] {
  return assigns.map((assign) => String((assign.Name as ShellNode | null)?.Value ?? '')).filter((name) => name !== '');
}

/** `exec` without a program: its redirections change the shell's own file descriptors. */
function isPlainExec(command: ShellNode | null, source: string): boolean {
  if (!command || shellSyntax().NodeType(command) !== 'CallExpr') return false;
  const args = (command.Args as ShellNode[] | null) ?? [];
  return args.length === 1 && wordText(args[0] as ShellNode, source).text === 'exec';
}

function isPipe(operator: unknown): boolean {
  return operator === shellOperators.pipe || operator === shellOperators.pipeAll;
}

/** Walks a syntax tree, keeping track of whether a statement reads a pipe. */
class LineCollector {
  readonly commands: SimpleCommand[] = [];
  readonly redirects: ShellRedirect[] = [];
  readonly recursiveFunctions: string[] = [];
  readonly prefixAssignments: string[] = [];
  readonly shellAssignments: string[] = [];
  readonly evaluations: string[] = [];
  processSubstitutions = 0;

  private readonly source: string;

  constructor(source: string) {
    this.source = source;
  }

  statements(statements: readonly ShellNode[], pipeFed: boolean): void {
    for (const statement of statements) this.statement(statement, pipeFed);
  }

  statement(statement: ShellNode, pipeFed: boolean): void {
    const redirects = (statement.Redirs as ShellNode[] | null) ?? [];
    const command = statement.Cmd as ShellNode | null;
    const persistent = isPlainExec(command, this.source);
    for (const redirect of redirects) this.redirect(redirect, persistent);
    if (!command) return;
    const type = shellSyntax().NodeType(command);
    if (type === 'BinaryCmd') {
      this.statement(command.X as ShellNode, pipeFed);
      this.statement(command.Y as ShellNode, pipeFed || isPipe(command.Op));
      return;
    }
    if (type === 'CallExpr') this.call(command, pipeFed, this.standardInputText(redirects));
    if (type === 'DeclClause') this.shellAssignments.push(...assignedNames((command.Args as ShellNode[] | null) ?? []));
    if (type === 'FuncDecl') this.functionDeclaration(command, pipeFed);
    else this.nested(command, pipeFed);
  }

  private functionDeclaration(declaration: ShellNode, pipeFed: boolean): void {
    const name = String((declaration.Name as ShellNode | null)?.Value ?? '');
    const firstBodyCommand = this.commands.length;
    this.nested(declaration, pipeFed);
    const body = this.commands.slice(firstBodyCommand);
    if (body.some((command) => command.argv[0]?.text === name)) this.recursiveFunctions.push(name);
  }

  private call(command: ShellNode, pipeFed: boolean, stdinText: string | undefined): void {
    const argv = ((command.Args as ShellNode[] | null) ?? []).map((word) => wordText(word, this.source));
    const names = assignedNames((command.Assigns as ShellNode[] | null) ?? []);
    if (argv.length === 0) {
      this.shellAssignments.push(...names);
      return;
    }
    this.prefixAssignments.push(...names);
    this.commands.push(stdinText === undefined ? { argv, pipeFed } : { argv, pipeFed, stdinText });
  }

  private redirect(redirect: ShellNode, persistent: boolean): void {
    const word = redirect.Word as ShellNode | null;
    const target = word ? wordText(word, this.source) : { text: '', dynamic: false };
    const found: ShellRedirect = { operator: Number(redirect.Op), target };
    const descriptor = (redirect.N as ShellNode | null)?.Value;
    if (descriptor !== undefined && descriptor !== null) found.descriptor = String(descriptor);
    if (persistent) found.persistent = true;
    this.redirects.push(found);
    this.nested(redirect, false);
  }

  /** Records why bash would evaluate text of this node; `${x:offset:length}` is not walked by mvdan-sh, so it is walked here. */
  private inspect(node: ShellNode, pipeFed: boolean): void {
    const risk = evaluationRisk(node);
    if (risk !== undefined) this.evaluations.push(risk);
    const slice = node.Slice as ShellNode | null | undefined;
    if (!slice) return;
    for (const part of [slice.Offset, slice.Length] as (ShellNode | null)[]) if (part) this.nested(part, pipeFed, true);
  }

  private standardInputText(redirects: readonly ShellNode[]): string | undefined {
    let text: string | undefined;
    for (const redirect of redirects) {
      const operator = Number(redirect.Op);
      if (operator === shellOperators.hereString) text = wordText(redirect.Word as ShellNode, this.source).text;
      const isHereDocument = operator === shellOperators.hereDocument || operator === shellOperators.dashHereDocument;
      if (isHereDocument && redirect.Hdoc) text = wordText(redirect.Hdoc as ShellNode, this.source).text;
    }
    return text;
  }

  /**
   * Finds statements nested in a node (compound commands, functions, `$(...)`, backticks, `<(...)`) and
   * inspects every node on the way. The root itself is inspected but not taken as a statement unless `whole`.
   */
  private nested(root: ShellNode, pipeFed: boolean, whole = false): void {
    let isRoot = !whole;
    shellSyntax().Walk(root, (node) => {
      if (!node) return true;
      this.inspect(node, pipeFed);
      if (isRoot) {
        isRoot = false;
        return true;
      }
      const type = shellSyntax().NodeType(node);
      if (type === 'Stmt') this.statement(node, pipeFed);
      else if (type === 'CmdSubst' || type === 'ProcSubst') {
        if (type === 'ProcSubst') this.processSubstitutions += 1;
        this.statements(node.Stmts as ShellNode[], false);
      } else return true;
      return false;
    });
  }
}

/** A reusable shell parser (bash dialect). Throws on syntax errors. */
export class ShellLineParser {
  private parser: ShellParser | undefined;

  parse(source: string): ParsedLine {
    this.parser ??= shellSyntax().NewParser();
    const file = this.parser.Parse(source, '');
    const collector = new LineCollector(source);
    collector.statements((file.Stmts as ShellNode[] | null) ?? [], false);
    const { commands, redirects, recursiveFunctions, prefixAssignments, shellAssignments, processSubstitutions, evaluations } = collector;
    return { commands, redirects, recursiveFunctions, prefixAssignments, shellAssignments, processSubstitutions, evaluations };
  }
}

/** The message of a mvdan-sh parse error (a Go error wrapped by GopherJS). */
export function parseErrorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  const goError = error as { Error?: () => string } | null;
  if (goError && typeof goError.Error === 'function') return goError.Error();
  return String(error);
}

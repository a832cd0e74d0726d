import type { ShellNode, ShellParser } from 'mvdan-sh';
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
}

/** Variable names of `Assign` nodes (declaration words without a name, like `-x`, are skipped). */
function assignedNames(assigns: readonly ShellNode[]): string[] {
  return assigns.map((assign) => String((assign.Name as ShellNode | null)?.Value ?? '')).filter((name) => name !== '');
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
    for (const redirect of redirects) this.redirect(redirect);
    const command = statement.Cmd as ShellNode | null;
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

  private redirect(redirect: ShellNode): void {
    const word = redirect.Word as ShellNode | null;
    const target = word ? wordText(word, this.source) : { text: '', dynamic: false };
    this.redirects.push({ operator: Number(redirect.Op), target });
    this.nested(redirect, false);
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

  /** Finds statements nested in a node: compound commands, functions, `$(...)`, backticks, `<(...)`. */
  private nested(root: ShellNode, pipeFed: boolean): void {
    let isRoot = true;
    shellSyntax().Walk(root, (node) => {
      if (isRoot || !node) {
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
    const { commands, redirects, recursiveFunctions, prefixAssignments, shellAssignments, processSubstitutions } = collector;
    return { commands, redirects, recursiveFunctions, prefixAssignments, shellAssignments, processSubstitutions };
  }
}

/** The message of a mvdan-sh parse error (a Go error wrapped by GopherJS). */
export function parseErrorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  const goError = error as { Error?: () => string } | null;
  if (goError && typeof goError.Error === 'function') return goError.Error();
  return String(error);
}

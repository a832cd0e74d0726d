import shell, { type ShellNode } from 'mvdan-sh';
import { wordText } from '../safety/shell-words.js';

const { syntax } = shell;

/** The argv of a single plain command, or why the text is not one. */
export type ArgumentsResult = { ok: true; argv: string[] } | { ok: false; error: string };

const notPlain =
  'is not a single plain command: pipes, redirections, `;`, `&&`, `||`, `&`, `$(...)`, backticks and ' +
  'variables need a shell; use the bash tool for those';

function isPlainStatement(statement: ShellNode): boolean {
  const command = statement.Cmd as ShellNode | null;
  if (!command || syntax.NodeType(command) !== 'CallExpr') return false;
  const redirects = (statement.Redirs as ShellNode[] | null) ?? [];
  const assigns = (command.Assigns as ShellNode[] | null) ?? [];
  const flags = statement.Background === true || statement.Negated === true || statement.Coprocess === true;
  return redirects.length === 0 && assigns.length === 0 && !flags;
}

/**
 * Splits a command line into argv with shell quoting rules (quotes, backslashes, line continuations)
 * but no shell: anything that would need a shell to run (operators, expansions) is refused.
 */
export function splitArguments(text: string): ArgumentsResult {
  let file: ShellNode;
  try {
    file = syntax.NewParser().Parse(text, '');
  } catch {
    return { ok: false, error: 'could not parse the command (unbalanced quotes?)' };
  }
  const statements = (file.Stmts as ShellNode[] | null) ?? [];
  if (statements.length === 0) return { ok: true, argv: [] };
  const [statement] = statements;
  if (statements.length > 1 || !statement || !isPlainStatement(statement)) return { ok: false, error: `the command ${notPlain}` };
  const words = ((statement.Cmd as ShellNode).Args as ShellNode[]).map((word) => wordText(word, text));
  if (words.some((word) => word.dynamic)) return { ok: false, error: `the command ${notPlain}` };
  return { ok: true, argv: words.map((word) => word.text) };
}

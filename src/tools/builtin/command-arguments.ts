import { splitPlainWords } from '../safety/plain-words.js';

/** The argv of a single plain command, or why the text is not one. */
export type ArgumentsResult = { ok: true; argv: string[] } | { ok: false; error: string };

const notPlain =
  'is not a single plain command: pipes, redirections, `;`, `&&`, `||`, `&`, `$(...)`, backticks and ' + 'variables need a shell; use the bash tool for those';

/**
 * Splits a command line into argv with shell quoting rules (quotes, backslashes, line continuations)
 * but no shell: anything that would need a shell to run (operators, expansions) is refused. One
 * linear pass (src/tools/safety/plain-words.ts), the same split the safety analysis uses.
 */
export function splitArguments(text: string): ArgumentsResult {
  const split = splitPlainWords(text);
  if (split.ok) return { ok: true, argv: split.words };
  if (split.problem === 'syntax') return { ok: false, error: 'could not parse the command (unbalanced quotes?)' };
  return { ok: false, error: `the command ${notPlain}` };
}

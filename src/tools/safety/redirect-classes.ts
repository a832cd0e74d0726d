import { shellOperators, type ShellRedirect } from './shell-syntax.js';
import { verdict } from './severity.js';
import type { Verdict } from './types.js';

const writingOperators = new Set<number>([
  shellOperators.redirectOut,
  shellOperators.appendOut,
  shellOperators.readWrite,
  shellOperators.duplicateOut,
  shellOperators.clobberOut,
  shellOperators.redirectAll,
  shellOperators.appendAll,
]);
const harmlessTargets = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);

/** Output redirection to a file is write; `>/dev/null`, `2>&1`, `>&-` and input redirection are read. */
export function classifyRedirect(redirect: ShellRedirect): Verdict {
  const target = redirect.target.text;
  if (!writingOperators.has(redirect.operator)) return verdict('read');
  if (redirect.operator === shellOperators.duplicateOut && /^(\d+-?|-)$/.test(target)) return verdict('read');
  if (harmlessTargets.has(target)) return verdict('read');
  return verdict('write', `writes output to file "${target}"`);
}

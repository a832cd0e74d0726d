import path from 'node:path';
import { shellOperators, type ShellRedirect } from './shell-syntax.js';
import { combineVerdicts, verdict } from './severity.js';
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
const duplicating = new Set<number>([shellOperators.duplicateIn, shellOperators.duplicateOut]);
const hereText = new Set<number>([shellOperators.hereDocument, shellOperators.dashHereDocument, shellOperators.hereString]);
const harmlessTargets = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);
/** The standard descriptors: `2>&1`, `>&2`, `<&0` move output between them and open nothing. */
const standardDescriptor = /^[012]-?$|^-$/;

/** bash opens a network socket for `/dev/tcp/HOST/PORT` and `/dev/udp/HOST/PORT` (whatever the operator, `<` included). */
function isNetworkTarget(target: string): boolean {
  const normalized = path.posix.normalize(target.replace(/^\/+/, '/'));
  return /^\/dev\/(tcp|udp)\//.test(normalized) || /^\/dev\/(tcp|udp)$/.test(normalized);
}

/** A target the shell computes at run time, or a glob/brace word under /dev: it may name a socket. */
function mayBeNetwork(redirect: ShellRedirect): boolean {
  const { text, dynamic } = redirect.target;
  return dynamic || (/^\/+dev\//.test(text) && /[*?[{]/.test(text));
}

function descriptorVerdict(redirect: ShellRedirect): Verdict {
  const { descriptor } = redirect;
  if (descriptor !== undefined && !standardDescriptor.test(descriptor)) return verdict('write', `opens or moves file descriptor ${descriptor}`);
  if (redirect.persistent) return verdict('write', 'exec with redirections changes the shell\u2019s own file descriptors');
  return verdict('read');
}

function targetVerdict(redirect: ShellRedirect): Verdict {
  const target = redirect.target.text;
  if (hereText.has(redirect.operator)) return verdict('read');
  if (isNetworkTarget(target)) return verdict('dangerous', `opens a network connection (${target})`);
  if (mayBeNetwork(redirect)) return verdict('write', `redirection to or from "${target}", computed at run time (it may be a network socket)`);
  if (duplicating.has(redirect.operator)) {
    return standardDescriptor.test(target) ? verdict('read') : verdict('write', `writes to or reads from file descriptor ${target}`);
  }
  if (!writingOperators.has(redirect.operator) || harmlessTargets.has(target)) return verdict('read');
  return verdict('write', `writes output to file "${target}"`);
}

/**
 * Output redirection to a file is write; `>/dev/null`, `2>&1`, `>&-` and input from a named file are read.
 * `/dev/tcp|udp/...` (a socket, both ways) is dangerous; descriptors other than 0-2 (`3<x`, `>&3`, `{fd}<x`),
 * `exec` with redirections and targets computed at run time are at least write.
 */
export function classifyRedirect(redirect: ShellRedirect): Verdict {
  return combineVerdicts([descriptorVerdict(redirect), targetVerdict(redirect)]);
}

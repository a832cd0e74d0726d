import type { ShellNode } from 'mvdan-sh';
import { shellSyntax } from './shell-module.js';
import type { ShellWord } from './types.js';

const ansiEscapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v' };

/** Removes shell backslash quoting from an unquoted literal (`\r\m` → `rm`, line continuations vanish). */
export function unescapeUnquoted(value: string): string {
  return value.replace(/\\(\n|.)/gs, (_match, character: string) => (character === '\n' ? '' : character));
}

/** Removes the backslash quoting that double quotes honour (`\$`, `` \` ``, `\"`, `\\`, line continuation). */
export function unescapeDoubleQuoted(value: string): string {
  return value.replace(/\\([$`"\\\n])/g, (_match, character: string) => (character === '\n' ? '' : character));
}

/** Decodes the escapes of a `$'...'` string. */
export function decodeAnsiC(value: string): string {
  return value.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/gs, (_match, escape: string) => {
    if (escape.startsWith('x')) return String.fromCharCode(Number.parseInt(escape.slice(1), 16));
    if (/^[0-7]/.test(escape)) return String.fromCharCode(Number.parseInt(escape, 8));
    return ansiEscapes[escape] ?? escape;
  });
}

/** Source text of a node. */
export function sourceOf(node: ShellNode, source: string): string {
  return source.slice(node.Pos().Offset(), node.End().Offset());
}

function partText(part: ShellNode, source: string, quoted: boolean): ShellWord {
  const type = shellSyntax().NodeType(part);
  if (type === 'Lit') {
    const value = String(part.Value);
    return { text: quoted ? unescapeDoubleQuoted(value) : unescapeUnquoted(value), dynamic: false };
  }
  if (type === 'SglQuoted') {
    const value = String(part.Value);
    return { text: part.Dollar === true ? decodeAnsiC(value) : value, dynamic: false };
  }
  if (type === 'DblQuoted') return joinParts(part.Parts as ShellNode[], source, true);
  return quoted ? { text: sourceOf(part, source), dynamic: true } : { text: sourceOf(part, source), dynamic: true, split: true };
}

function joinParts(parts: readonly ShellNode[], source: string, quoted: boolean): ShellWord {
  let text = '';
  let dynamic = false;
  let split = false;
  for (const part of parts) {
    const piece = partText(part, source, quoted);
    text += piece.text;
    dynamic ||= piece.dynamic;
    split ||= piece.split === true;
  }
  return split ? { text, dynamic, split } : { text, dynamic };
}

/** Reduces a Word node to its text after quote removal; expansions keep their source text and mark it dynamic. */
export function wordText(word: ShellNode, source: string): ShellWord {
  return joinParts((word.Parts as ShellNode[] | null) ?? [], source, false);
}

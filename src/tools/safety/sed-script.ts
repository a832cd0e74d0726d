/** sed commands that take the rest of the line as text or a file name. */
const lineCommands = new Set(['a', 'i', 'c', 'r', 'R', 'w', 'W', 'e', ':', 'b', 't', 'T', 'l', 'L', 'q', 'Q']);

/** Skips a `c...c` part (pattern or replacement) starting after its opening delimiter; returns the index after the closing one. */
function skipDelimited(script: string, start: number, delimiter: string): number {
  let index = start;
  while (index < script.length && script.charAt(index) !== delimiter) index += script.charAt(index) === '\\' ? 2 : 1;
  return index + 1;
}

/** Skips an address (`1`, `$`, `/re/`, `\cREc`, `1,5`, `0~2`, `!`, blanks); returns the index of the command letter. */
function skipAddress(script: string, start: number): number {
  let index = start;
  while (index < script.length) {
    const character = script.charAt(index);
    if (character === '/') index = skipDelimited(script, index + 1, '/');
    else if (character === '\\') index = skipDelimited(script, index + 2, script.charAt(index + 1));
    else if (/[0-9$,~!+ \t;{}\n]/.test(character)) index += 1;
    else return index;
  }
  return index;
}

/** Index after the `s` command's flags, or the reason the command writes or runs something. */
function substitution(script: string, start: number): { next: number; effect?: string } {
  const delimiter = script.charAt(start);
  const afterReplacement = skipDelimited(script, skipDelimited(script, start + 1, delimiter), delimiter);
  let index = afterReplacement;
  while (index < script.length && !/[;\n}]/.test(script.charAt(index))) {
    const flag = script.charAt(index);
    if (flag === 'w') return { next: script.length, effect: 'sed s///w writes a file' };
    if (flag === 'e') return { next: script.length, effect: 'sed s///e runs a command' };
    index += 1;
  }
  return { next: index };
}

/**
 * What a sed script does besides printing, in one pass: the `e` command and `s///e` run commands,
 * `w`/`W` and `s///w` write files. Undefined when it only reads and prints.
 */
export function sedScriptEffect(script: string): string | undefined {
  let index = 0;
  while (index < script.length) {
    index = skipAddress(script, index);
    const step = commandStep(script, index);
    if (step.effect) return step.effect;
    index = step.next;
  }
  return undefined;
}

/** One command at `index`: what it does and where the next one starts. */
function commandStep(script: string, index: number): { next: number; effect?: string } {
  const command = script.charAt(index);
  if (command === 'e') return { next: index, effect: 'sed e runs a command' };
  if (command === 'w' || command === 'W') return { next: index, effect: 'sed w writes a file' };
  if (command === 's') return substitution(script, index + 1);
  if (command === 'y') return { next: substitution(script, index + 1).next };
  if (!lineCommands.has(command)) return { next: index + 1 };
  const newline = script.indexOf('\n', index);
  return { next: newline === -1 ? script.length : newline + 1 };
}

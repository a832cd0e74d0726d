/** What a key press does in a table with a row cursor (j/k like vim and k9s, arrows, Home/End, Enter). */
export type TableKeyAction = { move: number } | { to: 'first' | 'last' } | { open: true } | undefined;

const moves: Record<string, number> = { j: 1, ArrowDown: 1, k: -1, ArrowUp: -1, PageDown: 20, PageUp: -20 };

/** The action of a key (modifier chords are left to the browser). */
export function tableKeyAction(key: string, modified: boolean): TableKeyAction {
  if (modified) return undefined;
  if (key in moves) return { move: moves[key] ?? 0 };
  if (key === 'Home') return { to: 'first' };
  if (key === 'End') return { to: 'last' };
  if (key === 'Enter') return { open: true };
  return undefined;
}

/** The row index after an action, kept inside `0..count-1` (-1 for an empty table). */
export function nextIndex(current: number, count: number, action: { move: number } | { to: 'first' | 'last' }): number {
  if (count === 0) return -1;
  if ('to' in action) return action.to === 'first' ? 0 : count - 1;
  const from = current < 0 ? (action.move > 0 ? -1 : count) : current;
  return Math.min(count - 1, Math.max(0, from + action.move));
}

/** Whether a key press happens in a field that takes text (so `/`, `j` and `k` type instead). */
export function typingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || !!target.closest('.cm-editor, .xterm');
}

import { useRef, useState } from 'react';
import { useInput, type Key } from 'ink';
import { useTextLineListening } from './key-pacing.js';

export interface TextInputHandlers {
  onSubmit(value: string): void;
  onCancel(): void;
  /** Tab: the value completed (command line). */
  onTab?(value: string): string;
  onChange?(value: string): void;
}

export interface TextInputOptions {
  /** The initial value starts selected: the first typed key replaces it; Backspace, → or End keep it for editing. */
  selectInitial?: boolean;
}

/** What a key does to a selected initial value: replace it (typed text), edit it (Backspace), keep it (→, End), or nothing. */
function onSelection(input: string, key: Key): 'replace' | 'edit' | 'keep' | undefined {
  if (key.backspace || key.delete) return 'edit';
  if (key.rightArrow || (key.ctrl && input === 'e')) return 'keep';
  if (key.ctrl && input === 'u') return 'replace';
  if (ignored(key) || !input) return undefined;
  return 'replace';
}

const ignored = (key: Key): boolean => key.ctrl || key.meta || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.tab;

function edited(value: string, input: string, key: Key): string | undefined {
  if (key.backspace || key.delete) return [...value].slice(0, -1).join('');
  if (key.ctrl && input === 'u') return '';
  if (ignored(key) || !input) return undefined;
  return value + input;
}

/**
 * One line of typed text (prompts, filter, command line): Enter submits, Esc cancels, Backspace and
 * ctrl-u edit. With `selectInitial`, a pre-filled value is selected (as a form's number field is): the
 * first typed key replaces it, Backspace edits it, Enter takes it as it is.
 */
export function useTextInput(
  active: boolean,
  initial: string,
  handlers: TextInputHandlers,
  options: TextInputOptions = {},
): { value: string; selected: boolean } {
  const [value, setValue] = useState(initial);
  // Keys typed faster than a redraw arrive before the state updates: edit the latest value, not the rendered one.
  const latest = useRef(initial);
  const selection = useRef(Boolean(options.selectInitial && initial));
  const [selected, setSelected] = useState(selection.current);
  /** The value a key edits: '' when it replaces a selected initial value; the selection ends on any key that acts on it. */
  const editedValue = (text: string, key: Key): string => {
    const action = selection.current ? onSelection(text, key) : undefined;
    if (!action) return latest.current;
    selection.current = false;
    setSelected(false);
    return action === 'replace' ? '' : latest.current;
  };
  const change = (next: string): void => {
    latest.current = next;
    setValue(next);
    handlers.onChange?.(next);
  };
  useInput(
    (input, key) => {
      if (key.return) return handlers.onSubmit(latest.current);
      if (key.escape) return handlers.onCancel();
      if (key.tab && handlers.onTab) return change(handlers.onTab(latest.current));
      // Text pasted or typed with its Enter in one read ("name\r") is the text, then a submit.
      const [text = '', ...after] = input.split(/[\r\n]/);
      const next = edited(editedValue(text, key), text, key);
      if (next !== undefined) change(next);
      if (after.length > 0) handlers.onSubmit(latest.current);
    },
    { isActive: active },
  );
  // After useInput: keys typed ahead are delivered once this line listens.
  useTextLineListening(active);
  return { value, selected };
}

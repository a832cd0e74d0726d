import { useState } from 'react';
import { useInput, type Key } from 'ink';

export interface TextInputHandlers {
  onSubmit(value: string): void;
  onCancel(): void;
  /** Tab: the value completed (command line). */
  onTab?(value: string): string;
  onChange?(value: string): void;
}

const ignored = (key: Key): boolean => key.ctrl || key.meta || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.tab;

function edited(value: string, input: string, key: Key): string | undefined {
  if (key.backspace || key.delete) return [...value].slice(0, -1).join('');
  if (key.ctrl && input === 'u') return '';
  if (ignored(key) || !input) return undefined;
  return value + input.replace(/[\r\n]/g, '');
}

/** One line of typed text (prompts, filter, command line): Enter submits, Esc cancels, Backspace and ctrl-u edit. */
export function useTextInput(active: boolean, initial: string, handlers: TextInputHandlers): string {
  const [value, setValue] = useState(initial);
  useInput(
    (input, key) => {
      if (key.return) return handlers.onSubmit(value);
      if (key.escape) return handlers.onCancel();
      if (key.tab && handlers.onTab) {
        const completed = handlers.onTab(value);
        setValue(completed);
        return handlers.onChange?.(completed);
      }
      const next = edited(value, input, key);
      if (next === undefined) return;
      setValue(next);
      handlers.onChange?.(next);
    },
    { isActive: active },
  );
  return value;
}

import { Text, useInput } from 'ink';
import type { ReactElement } from 'react';
import { useTextInput } from './use-text-input.js';

/** A y/n question on the footer line: y confirms; n or esc declines. */
export function ConfirmPrompt(props: { question: string; yesNo: string; onAnswer(yes: boolean): void }): ReactElement {
  useInput((input, key) => {
    if (input === 'y' || input === 'Y') props.onAnswer(true);
    else if (input === 'n' || input === 'N' || key.escape) props.onAnswer(false);
  });
  return (
    <Text color="yellow" wrap="truncate">
      {props.question} {props.yesNo}
    </Text>
  );
}

/**
 * A one-line prompt: Enter submits, esc cancels; `mask` shows nothing of what is typed (passwords).
 * A default (`initial`) is shown selected (inverse): the first typed key replaces it, Backspace edits it.
 */
export function AskPrompt(props: { label: string; initial?: string; mask?: boolean; error?: string; onAnswer(value: string | undefined): void }): ReactElement {
  const { value, selected } = useTextInput(
    true,
    props.initial ?? '',
    { onSubmit: (text) => props.onAnswer(text), onCancel: () => props.onAnswer(undefined) },
    { selectInitial: true },
  );
  return (
    <Text color="yellow" wrap="truncate">
      {props.error ? <Text color="red">{props.error} · </Text> : null}
      {props.label}{' '}
      <Text color="white" inverse={selected}>
        {props.mask ? '' : value}
      </Text>
      <Text inverse> </Text>
    </Text>
  );
}

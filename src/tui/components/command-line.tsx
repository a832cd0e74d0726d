import { Text } from 'ink';
import { useState, type ReactElement } from 'react';
import { complete, completions } from '../core/completion.js';
import { useTextInput } from './use-text-input.js';

export interface CommandLineProps {
  words: string[];
  onSubmit(command: string): void;
  onCancel(): void;
}

/** The `:` line: a kind (`pods`, `deploy`, `svc`, any served kind or short name), `ns [name]`, `helm`, `requests`, `q`; Tab completes. */
export function CommandLine(props: CommandLineProps): ReactElement {
  const [typed, setTyped] = useState('');
  const { value } = useTextInput(true, '', {
    onSubmit: props.onSubmit,
    onCancel: props.onCancel,
    onTab: (text) => complete(props.words, text),
    onChange: setTyped,
  });
  const hints = completions(props.words, typed).slice(0, 8);
  return (
    <Text wrap="truncate">
      <Text color="cyan">:</Text>
      {value}
      <Text inverse> </Text>
      {hints.length ? <Text dimColor>{`  ${hints.join(' ')}`}</Text> : null}
    </Text>
  );
}

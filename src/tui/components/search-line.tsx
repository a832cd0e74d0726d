import { Text } from 'ink';
import type { ReactElement } from 'react';
import { useTextInput } from './use-text-input.js';

export interface SearchLineProps {
  label: string;
  initial: string;
  onSubmit(value: string): void;
  onCancel(): void;
  onChange?(value: string): void;
}

/** The `/` line of tables and text views. */
export function SearchLine(props: SearchLineProps): ReactElement {
  const { value } = useTextInput(true, props.initial, props);
  return (
    <Text>
      {props.label}
      {value}
      <Text inverse> </Text>
    </Text>
  );
}

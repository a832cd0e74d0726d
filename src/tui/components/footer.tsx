import { Text } from 'ink';
import type { ReactElement } from 'react';

export interface FooterMessage {
  kind: 'error' | 'notice';
  text: string;
}

/** The last error (in the contract's words, `CODE: message`) or notice; else the key hints. */
export function Footer(props: { message: FooterMessage | undefined; hint: string }): ReactElement {
  if (!props.message)
    return (
      <Text dimColor wrap="truncate">
        {props.hint}
      </Text>
    );
  return (
    <Text color={props.message.kind === 'error' ? 'red' : 'green'} wrap="truncate">
      {props.message.text}
    </Text>
  );
}

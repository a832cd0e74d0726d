import { Text } from 'ink';
import type { ReactElement } from 'react';
import { MatchLines } from './match-lines.js';
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

/** The `/` line of a text pane over its search term: Enter closes it and hands over the term, Esc only closes it. */
export function TermLine(props: { term: string; close(): void; onTerm(term: string): void }): ReactElement {
  return (
    <SearchLine
      label="/"
      initial={props.term}
      onSubmit={(value) => {
        props.close();
        props.onTerm(value);
      }}
      onCancel={props.close}
    />
  );
}

/** A text pane's lines with the search term marked, and below them the `/` line while the search is open. */
export function SearchedLines(props: {
  lines: string[];
  top: number;
  needle: string;
  searching: boolean;
  close(): void;
  onTerm(term: string): void;
}): ReactElement {
  return (
    <>
      <MatchLines lines={props.lines} top={props.top} needle={props.needle} />
      {props.searching ? <TermLine term={props.needle} close={props.close} onTerm={props.onTerm} /> : null}
    </>
  );
}

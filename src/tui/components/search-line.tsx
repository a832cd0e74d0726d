import { Text } from 'ink';
import { useState, type ReactElement } from 'react';
import { useCapturedLine } from './captured-line.js';
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

/** The `/` search of a text pane: whether its line is open, and the term last searched for. */
export interface TextSearch {
  open: boolean;
  needle: string;
  start(): void;
  stop(): void;
  /** Keeps `term` as the needle and closes the line. */
  submit(term: string): void;
}

export function useTextSearch(shell: { setCapturing(capturing: boolean): void }): TextSearch {
  const line = useCapturedLine(shell);
  const [needle, setNeedle] = useState('');
  return {
    ...line,
    needle,
    submit: (term) => {
      setNeedle(term);
      line.stop();
    },
  };
}

/** A text pane's lines with the needle marked, and below them the `/` line while the search is open (Enter searches, Esc closes). */
export function SearchedLines(props: { lines: string[]; top: number; search: TextSearch; onTerm(term: string): void }): ReactElement {
  const { search } = props;
  return (
    <>
      <MatchLines lines={props.lines} top={props.top} needle={search.needle} />
      {search.open ? (
        <SearchLine
          label="/"
          initial={search.needle}
          onSubmit={(value) => {
            search.submit(value);
            props.onTerm(value);
          }}
          onCancel={search.stop}
        />
      ) : null}
    </>
  );
}

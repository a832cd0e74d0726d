import { Text } from 'ink';
import type { ReactElement } from 'react';

/** Lines of a scrollable text view (logs, YAML, describe); lines containing `needle` (case-insensitive) are inverted. */
export function MatchLines(props: { lines: string[]; top: number; needle: string }): ReactElement {
  const needle = props.needle.toLowerCase();
  return (
    <>
      {props.lines.map((line, index) => (
        <Text key={props.top + index} wrap="truncate" inverse={Boolean(needle) && line.toLowerCase().includes(needle)}>
          {line || ' '}
        </Text>
      ))}
    </>
  );
}

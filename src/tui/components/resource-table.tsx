import { Box, Text } from 'ink';
import type { ReactElement } from 'react';
import type { Row } from '../api/types.js';
import { agedBy, cellText, columnWidths, formatLine, type Column } from '../core/columns.js';
import { rowTone } from '../core/row-tone.js';

export interface ResourceTableProps {
  columns: Column[];
  rows: Row[];
  selected: number;
  /** Index of the first visible row. */
  offset: number;
  /** Lines for rows (the header takes one more). */
  height: number;
  width: number;
  /** Now (ms): ages of rows that carry `receivedAt` count on from it, so unchanged rows never show a frozen age. */
  now?: number;
}

function cellOf(row: Row, key: string, now: number | undefined): string {
  const text = cellText(row[key]);
  return key === 'age' && now !== undefined && typeof row.receivedAt === 'number' ? agedBy(text, (now - row.receivedAt) / 1000) : text;
}

/** The first visible row that keeps `selected` on screen, moving as little as possible from `offset`. */
export function scrollOffset(selected: number, offset: number, height: number, count: number): number {
  const visible = Math.max(1, height);
  let next = offset;
  if (selected < next) next = selected;
  if (selected >= next + visible) next = selected - visible + 1;
  return Math.max(0, Math.min(next, Math.max(0, count - visible)));
}

/** A table of rows: only the visible slice is measured and rendered, columns aligned by display width. */
export function ResourceTable(props: ResourceTableProps): ReactElement {
  const visible = props.rows
    .slice(props.offset, props.offset + Math.max(1, props.height))
    .map((row) => (props.now === undefined ? row : { ...row, age: cellOf(row, 'age', props.now) }));
  const widths = columnWidths(props.columns, visible, props.width);
  const header = formatLine(
    props.columns.map((column) => column.header),
    widths,
  );
  return (
    <Box flexDirection="column">
      <Text bold>{header}</Text>
      {visible.map((row, index) => {
        const line = formatLine(
          props.columns.map((column) => cellText(row[column.key])),
          widths,
        );
        const isSelected = props.offset + index === props.selected;
        return (
          <Text key={`${row.namespace ?? ''}/${row.name}`} inverse={isSelected} color={rowTone(row)} wrap="truncate">
            {line}
          </Text>
        );
      })}
    </Box>
  );
}

import { Box, Text, useInput } from 'ink';
import { useState, type ReactElement } from 'react';
import type { ClusterList } from '../api/types.js';
import { pickerRows } from '../core/clusters.js';
import type { Translate } from '../core/i18n.js';

export interface ClusterPickerProps {
  list: ClusterList;
  /** The cluster shown now (undefined: the home cluster). */
  current: string | undefined;
  t: Translate;
  onPick(name: string | undefined): void;
}

/** `:ctx` alone: the clusters of GET /api/clusters (down ones in red, with why); j/k or arrows move, enter switches, esc cancels. */
export function ClusterPicker(props: ClusterPickerProps): ReactElement {
  const rows = pickerRows(props.list, props.current, { down: props.t('tui.clusters.down'), home: props.t('tui.clusters.home') });
  const [cursor, setCursor] = useState(
    Math.max(
      0,
      rows.findIndex((row) => row.current),
    ),
  );
  useInput((input, key) => {
    if (key.escape) return props.onPick(undefined);
    if (key.return) return props.onPick(rows[cursor]?.name);
    const step = key.downArrow || input === 'j' ? 1 : key.upArrow || input === 'k' ? -1 : 0;
    setCursor((at) => Math.min(rows.length - 1, Math.max(0, at + step)));
  });
  return (
    <Box flexDirection="column">
      <Text bold color="cyan">
        {props.t('tui.clusters.title')}
      </Text>
      {rows.map((row, index) => (
        <Text key={row.name} wrap="truncate" inverse={index === cursor} color={row.reachable ? undefined : 'red'} bold={row.current}>
          {row.text}
        </Text>
      ))}
      <Text dimColor>{props.t('tui.clusters.hint')}</Text>
    </Box>
  );
}

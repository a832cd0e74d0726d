import { Text } from 'ink';
import type { ReactElement } from 'react';

/** Eighths of a cell, for the bar's last partly filled cell (Unicode block elements). */
const partial = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** The bar's cells only: `█` filled, `░` empty (ASCII: `#` and `-`), exactly `width` cells. */
export function barCells(percent: number, width: number, ascii: boolean): string {
  const bounded = Math.max(0, Math.min(100, Number.isFinite(percent) ? percent : 0));
  const eighths = Math.round((bounded / 100) * width * 8);
  const full = Math.floor(eighths / 8);
  if (ascii) return '#'.repeat(full) + '-'.repeat(width - full);
  const rest = full < width ? (partial[eighths % 8] ?? '') : '';
  return '█'.repeat(full) + rest + '░'.repeat(width - full - (rest ? 1 : 0));
}

/** A progress bar with its percentage (` 40%`), as one table cell: `width` cells of bar, then the number. */
export function progressText(percent: number, width: number, ascii: boolean): string {
  const bounded = Math.max(0, Math.min(100, Math.round(percent)));
  return `${barCells(bounded, width, ascii)} ${String(bounded).padStart(3)}%`;
}

/** A progress bar on its own line. */
export function ProgressBar(props: { percent: number; width: number; ascii: boolean; color?: string }): ReactElement {
  return <Text color={props.color}>{progressText(props.percent, props.width, props.ascii)}</Text>;
}

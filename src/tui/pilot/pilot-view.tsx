import { Box, Text } from 'ink';
import type { ReactElement } from 'react';
import { PaneFrame } from './pane-frame.js';
import type { Transcript } from './transcript.js';
import { transcriptLines, wrapToWidth, type Line, type LineOptions } from './transcript-lines.js';

/** The transcript's line options (`width` is the pane's: the lines get what is inside its frame), and the pane's own. */
export interface PilotViewProps extends LineOptions {
  transcript: Transcript;
  height: number;
  /** The bottom line: the question being typed, or the key hint. */
  footer: ReactElement;
}

/** The first transcript line to draw: the selected tool call in view, else the end (newest). */
function firstLine(count: number, room: number, selectedStart: number | undefined): number {
  const last = Math.max(0, count - room);
  if (selectedStart === undefined) return last;
  return Math.max(0, Math.min(last, selectedStart - 1));
}

const drawn = (line: Line, index: number): ReactElement => (
  <Text key={index} wrap="truncate" color={line.color} bold={line.bold} dimColor={line.dim} inverse={line.inverse}>
    {line.text || ' '}
  </Text>
);

/** The AI pilot pane: title, the transcript (newest at the bottom), and the bottom line. */
export function PilotView(props: PilotViewProps): ReactElement {
  const { t, transcript } = props;
  const inner = Math.max(10, props.width - 3);
  const room = Math.max(1, props.height - 2);
  const { lines, starts } = transcriptLines(transcript.entries, { ...props, width: inner });
  const top = firstLine(lines.length, room, props.selected === undefined ? undefined : starts.get(props.selected));
  const shown = lines.length === 0 ? wrapToWidth(t('tui.pilot.empty'), inner).map((text) => ({ text, dim: true })) : lines.slice(top, top + room);
  return (
    <PaneFrame width={props.width} height={props.height} ascii={props.ascii}>
      <Text bold color="cyan" wrap="truncate">
        {t('tui.pilot.title')}
        {transcript.title ? ` · ${transcript.title}` : ''}
        {transcript.busy ? <Text color="yellow"> {t('tui.pilot.thinking')}</Text> : null}
      </Text>
      <Box flexDirection="column" height={room} overflow="hidden">
        {shown.map(drawn)}
      </Box>
      {props.footer}
    </PaneFrame>
  );
}

import { Box } from 'ink';
import type { ReactElement, ReactNode } from 'react';

/** The side pane's frame: a rule on its left only (ASCII under --ascii), one column of padding. */
export function PaneFrame(props: { width: number; height: number; ascii: boolean; children: ReactNode }): ReactElement {
  return (
    <Box
      flexDirection="column"
      width={props.width}
      height={props.height}
      borderStyle={props.ascii ? 'classic' : 'single'}
      borderTop={false}
      borderBottom={false}
      borderRight={false}
      paddingLeft={1}
    >
      {props.children}
    </Box>
  );
}

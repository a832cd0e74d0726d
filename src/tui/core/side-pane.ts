import type { ReactElement } from 'react';

/** A pane beside the table (the AI pilot's hook): opened and closed by `key`, drawn at the given size. */
export interface SidePane {
  key: string;
  render(props: { height: number; width: number; active: boolean; close(): void }): ReactElement;
}

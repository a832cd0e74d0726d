import type { ReactElement } from 'react';

/** A finding the AI pilot is asked about (the `:problems` view's ask key): sent as the chat context's `finding`. */
export interface PilotFocus {
  /** The finding's id. */
  finding: string;
  /** `CrashLoopBackOff · Pod/web-1`, shown above the question. */
  label: string;
  /** The question the ask line starts with. */
  question: string;
  namespace?: string;
  /** `<kind>/<name>` */
  resource: string;
}

/** A pane beside the table (the AI pilot's hook): opened and closed by `key`, drawn at the given size. */
export interface SidePane {
  key: string;
  render(props: { height: number; width: number; active: boolean; close(): void }): ReactElement;
  /** Puts a finding in the pane's context and starts a question about it (the shell opens the pane). */
  focus?(focus: PilotFocus): void;
}

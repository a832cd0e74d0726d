/** The one prompt or overlay the application shell shows over the view (src/tui/app.tsx draws it). */
export type Modal =
  | { kind: 'confirm'; question: string; resolve(yes: boolean): void }
  | { kind: 'ask'; label: string; initial?: string; mask?: boolean; resolve(value: string | undefined): void }
  | { kind: 'help' }
  | { kind: 'command' };

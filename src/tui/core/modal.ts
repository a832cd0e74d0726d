import type { ClusterList } from '../api/types.js';

/** The one prompt or overlay the application shell shows over the view (src/tui/app.tsx draws it). */
export type Modal =
  | { kind: 'confirm'; question: string; resolve(yes: boolean): void }
  | { kind: 'ask'; label: string; initial?: string; mask?: boolean; error?: string; resolve(value: string | undefined): void }
  | { kind: 'help' }
  | { kind: 'clusters'; list: ClusterList; current: string | undefined; resolve(name: string | undefined): void }
  | { kind: 'command' };

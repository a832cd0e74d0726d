import { createContext, useContext, type ReactNode } from 'react';

/** A finding the AI pilot is asked about: its id (sent as the chat context's `finding`) and what the context chip shows. */
export interface PilotFocus {
  finding: string;
  /** `CrashLoopBackOff · Pod/web-1` */
  label: string;
  /** The question the composer starts with. */
  question: string;
  namespace?: string;
  /** `<kind>/<name>` */
  resource: string;
}

const PilotFocusContext = createContext<((focus: PilotFocus) => void) | undefined>(undefined);

/** Lets a page open the AI pilot with a finding as the chat's context (the shell owns the panel). */
export function PilotFocusProvider({ ask, children }: { ask: (focus: PilotFocus) => void; children: ReactNode }): ReactNode {
  return <PilotFocusContext.Provider value={ask}>{children}</PilotFocusContext.Provider>;
}

/** Opens the pilot panel with the focus as context; undefined outside the shell. */
export function useAskPilot(): ((focus: PilotFocus) => void) | undefined {
  return useContext(PilotFocusContext);
}

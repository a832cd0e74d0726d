import { createContext, useContext } from 'react';
import type { PilothouseApi } from '../api/pilothouse-api.js';
import type { Target } from '../api/types.js';
import type { Language, Translate } from './i18n.js';
import type { ViewId } from './key-map.js';
import type { PilotFocus } from './side-pane.js';

/** One entry of the view stack (esc goes back to the one below). */
export type ViewState =
  | { type: 'table'; view: ViewId; resource: string; title: string; namespaced: boolean }
  | { type: 'text'; view: 'describe' | 'yaml'; title: string; load: () => Promise<string> }
  | { type: 'logs'; target: Target }
  | { type: 'drain'; node: string; id: string }
  | { type: 'helm' }
  | { type: 'helm-history'; release: Target }
  | { type: 'access-requests' }
  | { type: 'reports' }
  | { type: 'problems' }
  | { type: 'port-forwards' }
  | { type: 'investigations' };

/** What a write needs an access request to cover when the server answers 403 approval_required. */
export interface AccessScope {
  permission: 'execute_write' | 'delete';
  namespace?: string;
  resource: string;
}

/** What every view may ask of the application shell (narrow, handed down by context). */
export interface Shell {
  api: PilothouseApi;
  t: Translate;
  readonly: boolean;
  ascii: boolean;
  /** The namespace rows are listed in; undefined: all namespaces. */
  namespace: string | undefined;
  setNamespace(namespace: string | undefined): void;
  /** The cluster the views show (ADR 0035); undefined until the service named its home cluster. */
  cluster: string | undefined;
  /** `:ctx NAME` switches to the cluster (an unknown name: an error line); `:ctx` alone opens the picker. */
  switchCluster(name: string | undefined): void;
  /** `:lang ko`: every string is drawn in that language from now on (the shared catalogue). */
  setLanguage(language: Language): void;
  push(view: ViewState): void;
  pop(): void;
  /** Shows an error in the footer, in the contract's words (`CODE: message`). */
  report(error: unknown): void;
  /** Shows a notice in the footer. */
  notice(text: string): void;
  /** A y/n question naming what happens; resolves true on y. */
  confirm(question: string): Promise<boolean>;
  /** A one-line prompt; undefined when cancelled. */
  ask(label: string, initial?: string): Promise<string | undefined>;
  /** Runs a write; a 403 approval_required offers an access request in place. Resolves undefined when it did not happen. */
  write<T>(work: () => Promise<T>, scope: AccessScope): Promise<T | undefined>;
  /** Views typing text (filter, search) take every key while they do. */
  setCapturing(capturing: boolean): void;
  /** Opens the AI pilot's pane asking about a finding; false when there is no pilot pane. */
  askPilot(focus: PilotFocus): boolean;
  /** Hands the terminal to another program (editor, shell) and takes it back. */
  suspend(work: () => Promise<void>): Promise<void>;
}

export const ShellContext = createContext<Shell | undefined>(undefined);

/** The shell of the running application. */
export function useShell(): Shell {
  const shell = useContext(ShellContext);
  if (!shell) throw new Error('useShell outside the application shell');
  return shell;
}

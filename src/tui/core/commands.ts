import type { ResourceKind } from '../api/types.js';
import { kindNamed } from './completion.js';
import { clusterWords } from './clusters.js';
import { viewOfResource } from './key-map.js';
import type { Shell, ViewState } from './shell.js';
import { languages, type Language } from './i18n.js';

/** What a `:` command asks for: a view to open, a namespace, a cluster (undefined: the picker), quitting, or an error to show. */
export type CommandOutcome =
  | { view: ViewState }
  | { namespace: string }
  | { cluster: string | undefined }
  | { language: Language }
  | { badLanguage: string | undefined }
  | { quit: true }
  | { unknown: string }
  | { none: true };

/** The table view of a kind. */
export function tableOf(kind: ResourceKind): ViewState {
  return { type: 'table', view: viewOfResource(kind.name), resource: kind.name, title: kind.plural, namespaced: kind.namespaced };
}

/** Interprets a `:` line. */
const fixedCommands: Record<string, CommandOutcome> = {
  q: { quit: true },
  'q!': { quit: true },
  quit: { quit: true },
  helm: { view: { type: 'helm' } },
  requests: { view: { type: 'access-requests' } },
  ar: { view: { type: 'access-requests' } },
  reports: { view: { type: 'reports' } },
  problems: { view: { type: 'problems' } },
  pf: { view: { type: 'port-forwards' } },
  forwards: { view: { type: 'port-forwards' } },
  portforwards: { view: { type: 'port-forwards' } },
  investigations: { view: { type: 'investigations' } },
  inv: { view: { type: 'investigations' } },
};
const namespaceWords = new Set(['ns', 'namespace', 'namespaces']);
const switchWords = new Set<string>(clusterWords);
const languageWords = new Set(['lang', 'language']);

/** `:lang ko`: one of the catalogue's languages, or what was typed (nothing: the usage line). */
function languageOutcome(argument: string | undefined): CommandOutcome {
  const code = argument?.toLowerCase();
  return code && (languages as readonly string[]).includes(code) ? { language: code as Language } : { badLanguage: argument };
}

export function interpretCommand(line: string, kinds: ResourceKind[]): CommandOutcome {
  const [word = '', argument] = line.trim().split(/\s+/);
  const lower = word.toLowerCase();
  if (!lower) return { none: true };
  const fixed = fixedCommands[lower];
  if (fixed) return fixed;
  if (namespaceWords.has(lower) && argument) return { namespace: argument };
  if (switchWords.has(lower)) return { cluster: argument };
  if (languageWords.has(lower)) return languageOutcome(argument);
  const kind = kindNamed(kinds, lower);
  return kind ? { view: tableOf(kind) } : { unknown: word };
}

/** Carries out a `:` command on the shell; returns true when the application should quit. */
export function runCommand(shell: Shell, line: string, kinds: ResourceKind[]): boolean {
  const outcome = interpretCommand(line, kinds);
  if ('quit' in outcome) return true;
  if ('view' in outcome) shell.push(outcome.view);
  else if ('namespace' in outcome) shell.setNamespace(outcome.namespace === '-A' || outcome.namespace === 'all' ? undefined : outcome.namespace);
  else if ('cluster' in outcome) shell.switchCluster(outcome.cluster);
  else if ('language' in outcome) shell.setLanguage(outcome.language);
  else if ('badLanguage' in outcome) shell.report(new Error(badLanguageLine(shell, outcome.badLanguage)));
  else if ('unknown' in outcome) shell.report(new Error(shell.t('tui.error.unknownCommand', { command: outcome.unknown })));
  return false;
}

function badLanguageLine(shell: Shell, typed: string | undefined): string {
  return typed ? shell.t('lang.unknown', { language: typed }) : shell.t('lang.usage');
}

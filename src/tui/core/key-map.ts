import type { Key } from 'ink';

/** Every view of the terminal UI; each has its own keys (the `?` help and the key table of docs/user-guide/terminal-ui.md list exactly these). */
export const viewIds = [
  'pods',
  'deployments',
  'statefulsets',
  'daemonsets',
  'nodes',
  'namespaces',
  'resources',
  'helm',
  'helm-history',
  'describe',
  'yaml',
  'logs',
  'drain',
  'access-requests',
  'pilot',
  'reports',
  'problems',
  'port-forwards',
  'investigations',
] as const;
export type ViewId = (typeof viewIds)[number];

export type ActionName =
  | 'move'
  | 'page'
  | 'ends'
  | 'filter'
  | 'allNamespaces'
  | 'open'
  | 'describe'
  | 'yaml'
  | 'edit'
  | 'logs'
  | 'shell'
  | 'portForward'
  | 'investigate'
  | 'askPilot'
  | 'delete'
  | 'scale'
  | 'restart'
  | 'rollback'
  | 'pause'
  | 'resume'
  | 'cordon'
  | 'uncordon'
  | 'drain'
  | 'history'
  | 'uninstall'
  | 'search'
  | 'nextMatch'
  | 'follow'
  | 'allContainers'
  | 'previous'
  | 'wrap'
  | 'requests'
  | 'pilot'
  | 'ask'
  | 'approve'
  | 'approveRequest'
  | 'denyRequest'
  | 'stopForward'
  | 'reject'
  | 'expand'
  | 'sessions'
  | 'newChat'
  | 'requestAccess'
  | 'focus'
  | 'newReport'
  | 'download'
  | 'downloadTo'
  | 'command'
  | 'help'
  | 'back'
  | 'quit';

/** One key of a view: how it is typed (`d`, `ctrl-d`, `shift-f`, `enter`), what it does, whether it writes (hidden by --readonly). */
export interface KeyBinding {
  key: string;
  action: ActionName;
  write?: boolean;
  /** Shown in help only; the view handles it itself (arrows, pages). */
  display?: boolean;
}

const navigation: KeyBinding[] = [
  { key: 'up/down j/k', action: 'move', display: true },
  { key: 'pgup/pgdn', action: 'page', display: true },
  { key: 'g/G', action: 'ends', display: true },
];
const table: KeyBinding[] = [...navigation, { key: '/', action: 'filter' }];
const rows: KeyBinding[] = [
  ...table,
  { key: '0', action: 'allNamespaces' },
  { key: 'd', action: 'describe' },
  { key: 'y', action: 'yaml' },
  { key: 'e', action: 'edit', write: true },
  { key: 'ctrl-d', action: 'delete', write: true },
  { key: 'i', action: 'investigate' },
];
const text: KeyBinding[] = [...navigation, { key: '/', action: 'search' }, { key: 'n', action: 'nextMatch' }];
const global: KeyBinding[] = [
  { key: ':', action: 'command' },
  { key: '?', action: 'help' },
  { key: 'x', action: 'requests' },
  { key: 'a', action: 'pilot' },
  { key: 'esc', action: 'back' },
  { key: 'q', action: 'quit' },
  { key: 'ctrl-c', action: 'quit' },
];
const scaleRestart: KeyBinding[] = [
  { key: 's', action: 'scale', write: true },
  { key: 'r', action: 'restart', write: true },
];

const viewKeys: Record<ViewId, KeyBinding[]> = {
  pods: [...rows, { key: 'l', action: 'logs' }, { key: 's', action: 'shell', write: true }, { key: 'shift-f', action: 'portForward', write: true }],
  deployments: [
    ...rows,
    ...scaleRestart,
    { key: 'b', action: 'rollback', write: true },
    { key: 'p', action: 'pause', write: true },
    { key: 'u', action: 'resume', write: true },
  ],
  statefulsets: [...rows, ...scaleRestart],
  daemonsets: [...rows, { key: 'r', action: 'restart', write: true }],
  nodes: [...rows, { key: 'c', action: 'cordon', write: true }, { key: 'u', action: 'uncordon', write: true }, { key: 'r', action: 'drain', write: true }],
  namespaces: [...rows, { key: 'enter', action: 'open' }],
  resources: rows,
  helm: [
    ...table,
    { key: '0', action: 'allNamespaces' },
    { key: 'h', action: 'history' },
    { key: 'b', action: 'rollback', write: true },
    { key: 'ctrl-d', action: 'uninstall', write: true },
  ],
  'helm-history': [...table, { key: 'b', action: 'rollback', write: true }],
  describe: text,
  yaml: text,
  logs: [...text, { key: 'f', action: 'follow' }, { key: '0', action: 'allContainers' }, { key: 'p', action: 'previous' }, { key: 'w', action: 'wrap' }],
  drain: navigation,
  'access-requests': [...table, { key: 'y', action: 'approveRequest', write: true }, { key: 'n', action: 'denyRequest', write: true }],
  pilot: [
    { key: 'up/down j/k', action: 'move', display: true },
    { key: 'i', action: 'ask' },
    { key: 'y', action: 'approve' },
    { key: 'n', action: 'reject' },
    { key: 'enter', action: 'expand' },
    { key: 'h', action: 'sessions' },
    { key: 'c', action: 'newChat' },
    { key: 'r', action: 'requestAccess' },
    { key: 'tab', action: 'focus' },
  ],
  problems: [...table, { key: 'enter', action: 'open' }, { key: 'y', action: 'yaml' }, { key: 'p', action: 'askPilot' }, { key: 'i', action: 'investigate' }],
  'port-forwards': [...table, { key: 'ctrl-d', action: 'stopForward', write: true }],
  investigations: [...table, { key: 'enter', action: 'open' }],
  reports: [
    ...navigation,
    { key: 'n', action: 'newReport' },
    { key: 'enter', action: 'download' },
    { key: 'o', action: 'downloadTo' },
    { key: 'ctrl-d', action: 'delete', write: true },
  ],
};

/** The keys of a view, global keys last; `readonly` leaves out every write. */
export function keysOf(view: ViewId, options: { readonly: boolean }): KeyBinding[] {
  return [...viewKeys[view], ...global].filter((binding) => !(options.readonly && binding.write));
}

/** The view that lists rows of a resource type (`pods`, `deployments.apps`, ...). */
export function viewOfResource(plural: string): ViewId {
  const known: Record<string, ViewId> = {
    pods: 'pods',
    deployments: 'deployments',
    statefulsets: 'statefulsets',
    daemonsets: 'daemonsets',
    nodes: 'nodes',
    namespaces: 'namespaces',
  };
  return known[plural.split('.')[0] ?? ''] ?? 'resources';
}

/** Whether a keypress (ink's input and key flags) is the binding's key. */
export function pressed(binding: Pick<KeyBinding, 'key'>, input: string, key: Key): boolean {
  const spec = binding.key;
  if (spec === 'enter') return key.return;
  if (spec === 'esc') return key.escape;
  if (spec === 'tab') return key.tab;
  if (spec.startsWith('ctrl-')) return key.ctrl && input === spec.slice(5);
  if (spec.startsWith('shift-')) return input === spec.slice(6).toUpperCase();
  return !key.ctrl && !key.meta && input === spec;
}

/** The action a keypress means in a view, if any (display-only keys and hidden writes never match). */
export function actionFor(view: ViewId, options: { readonly: boolean }, input: string, key: Key): ActionName | undefined {
  return keysOf(view, options).find((binding) => !binding.display && pressed(binding, input, key))?.action;
}

/** The global action (`:`, `?`, `x`, `esc`, `q`, ctrl-c) a keypress means, if any. */
export function globalAction(input: string, key: Key): ActionName | undefined {
  return global.find((binding) => pressed(binding, input, key))?.action;
}

/** The key table (markdown) of docs/user-guide/terminal-ui.md, generated from this key map; test/unit/tui-readme.test.ts keeps the page equal to it (make tui-keys). */
export function keyTable(label: (action: ActionName) => string): string {
  const lines = ['| View | Key | Action |', '| --- | --- | --- |'];
  for (const view of viewIds) {
    for (const binding of viewKeys[view]) {
      const mark = binding.write ? ' (write; hidden by `--readonly`)' : '';
      lines.push(`| ${view} | \`${binding.key}\` | ${label(binding.action)}${mark} |`);
    }
  }
  for (const binding of global) lines.push(`| every view | \`${binding.key}\` | ${label(binding.action)} |`);
  return lines.join('\n');
}

import { describe, expect, it } from 'vitest';
import { filterRows, parseFilter } from './filter.js';
import { complete, completions, kindNamed, commandWords } from './completion.js';
import { interpretCommand } from './commands.js';
import type { ResourceKind } from '../api/types.js';

describe('the / filter', () => {
  it('reads a substring, a -l label selector, or both', () => {
    expect(parseFilter('web')).toEqual({ text: 'web' });
    expect(parseFilter('  web  ')).toEqual({ text: 'web' });
    expect(parseFilter('-l app=web')).toEqual({ labelSelector: 'app=web', text: '' });
    expect(parseFilter('-lapp=web,tier!=db')).toEqual({ labelSelector: 'app=web,tier!=db', text: '' });
    expect(parseFilter('-l app=web api')).toEqual({ labelSelector: 'app=web', text: 'api' });
    expect(parseFilter('')).toEqual({ text: '' });
  });

  it('keeps rows with the text in any column, case-insensitively', () => {
    const rows = [
      { name: 'web-1', status: 'Running', restarts: 0 },
      { name: 'db-1', status: 'CrashLoopBackOff', restarts: 12 },
      { name: '웹-서버', status: 'Running', restarts: 1 },
    ];
    expect(filterRows(rows, 'crash').map((row) => row.name)).toEqual(['db-1']);
    expect(filterRows(rows, 'RUNNING').map((row) => row.name)).toEqual(['web-1', '웹-서버']);
    expect(filterRows(rows, '서버').map((row) => row.name)).toEqual(['웹-서버']);
    expect(filterRows(rows, '12').map((row) => row.name)).toEqual(['db-1']);
    expect(filterRows(rows, '')).toHaveLength(3);
  });
});

const kind = (name: string, kindName: string, shortNames: string[], group = ''): ResourceKind => ({
  name: group ? `${name}.${group}` : name,
  kind: kindName,
  group,
  version: 'v1',
  plural: name,
  singular: kindName.toLowerCase(),
  shortNames,
  namespaced: true,
  verbs: ['list'],
});
const kinds = [
  kind('pods', 'Pod', ['po']),
  kind('deployments', 'Deployment', ['deploy'], 'apps'),
  kind('services', 'Service', ['svc']),
  kind('widgets', 'Widget', ['wg'], 'example.com'),
  kind('podtemplates', 'PodTemplate', []),
];

describe('the : command line', () => {
  it('completes kinds, short names and built-in commands', () => {
    const words = commandWords(kinds);
    expect(completions(words, 'po')).toEqual(['po', 'pod', 'pods', 'podtemplate', 'podtemplates']);
    expect(complete(words, 'dep')).toBe('deploy');
    expect(complete(words, 'wid')).toBe('widget');
    expect(complete(words, 'he')).toBe('helm');
    expect(complete(words, 'zzz')).toBe('zzz');
  });

  it('opens any served kind by plural, singular, short name, kind or plural.group', () => {
    expect(kindNamed(kinds, 'svc')?.name).toBe('services');
    expect(kindNamed(kinds, 'Deployment')?.name).toBe('deployments.apps');
    expect(kindNamed(kinds, 'wg')?.name).toBe('widgets.example.com');
    expect(kindNamed(kinds, 'widgets.example.com')?.name).toBe('widgets.example.com');
    expect(interpretCommand('deploy', kinds)).toMatchObject({ view: { type: 'table', view: 'deployments', resource: 'deployments.apps' } });
    expect(interpretCommand('ns kube-system', kinds)).toEqual({ namespace: 'kube-system' });
    expect(interpretCommand('helm', kinds)).toEqual({ view: { type: 'helm' } });
    expect(interpretCommand('q', kinds)).toEqual({ quit: true });
    expect(interpretCommand('nonsense', kinds)).toEqual({ unknown: 'nonsense' });
  });
});

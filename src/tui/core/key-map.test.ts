import { describe, expect, it } from 'vitest';
import type { Key } from 'ink';
import { actionFor, globalAction, keysOf, keyTable, pressed, viewIds, viewOfResource } from './key-map.js';

const key = (flags: Partial<Key> = {}): Key =>
  ({
    upArrow: false,
    downArrow: false,
    leftArrow: false,
    rightArrow: false,
    pageDown: false,
    pageUp: false,
    home: false,
    end: false,
    return: false,
    escape: false,
    ctrl: false,
    shift: false,
    tab: false,
    backspace: false,
    delete: false,
    meta: false,
    super: false,
    hyper: false,
    capsLock: false,
    numLock: false,
    ...flags,
  }) as Key;

describe('the key map', () => {
  it('gives each view its k9s keys and the global ones', () => {
    const pods = keysOf('pods', { readonly: false }).map((binding) => `${binding.key}:${binding.action}`);
    expect(pods).toEqual(
      expect.arrayContaining(['d:describe', 'y:yaml', 'e:edit', 'l:logs', 's:shell', 'shift-f:portForward', 'ctrl-d:delete', '/:filter', '0:allNamespaces']),
    );
    expect(pods).toEqual(expect.arrayContaining(['::command', '?:help', 'esc:back', 'q:quit', 'ctrl-c:quit']));
    const deployments = keysOf('deployments', { readonly: false }).map((binding) => `${binding.key}:${binding.action}`);
    expect(deployments).toEqual(expect.arrayContaining(['s:scale', 'r:restart', 'b:rollback', 'p:pause', 'u:resume']));
    expect(deployments).not.toContain('l:logs');
    const nodes = keysOf('nodes', { readonly: false }).map((binding) => `${binding.key}:${binding.action}`);
    expect(nodes).toEqual(expect.arrayContaining(['c:cordon', 'u:uncordon', 'r:drain']));
    const logs = keysOf('logs', { readonly: false }).map((binding) => `${binding.key}:${binding.action}`);
    expect(logs).toEqual(expect.arrayContaining(['f:follow', '0:allContainers', 'p:previous', 'w:wrap', '/:search']));
  });

  it('never gives one key two meanings in a view', () => {
    for (const view of viewIds) {
      const keys = keysOf(view, { readonly: false }).map((binding) => binding.key);
      expect(new Set(keys).size, view).toBe(keys.length);
    }
  });

  it('hides every write under --readonly, in help and in key handling alike', () => {
    for (const view of viewIds) expect(keysOf(view, { readonly: true }).filter((binding) => binding.write)).toEqual([]);
    expect(actionFor('pods', { readonly: true }, 'd', key({ ctrl: true }))).toBeUndefined();
    expect(actionFor('pods', { readonly: false }, 'd', key({ ctrl: true }))).toBe('delete');
    expect(actionFor('deployments', { readonly: true }, 's', key())).toBeUndefined();
    expect(actionFor('deployments', { readonly: true }, 'd', key())).toBe('describe');
  });

  it('reads ctrl, shift and named keys', () => {
    expect(pressed({ key: 'shift-f' }, 'F', key({ shift: true }))).toBe(true);
    expect(pressed({ key: 'shift-f' }, 'f', key())).toBe(false);
    expect(pressed({ key: 'ctrl-d' }, 'd', key())).toBe(false);
    expect(pressed({ key: 'esc' }, '', key({ escape: true }))).toBe(true);
    expect(pressed({ key: 'enter' }, '', key({ return: true }))).toBe(true);
    expect(globalAction('?', key())).toBe('help');
    expect(globalAction('c', key({ ctrl: true }))).toBe('quit');
    expect(actionFor('pods', { readonly: false }, 'j', key())).toBeUndefined();
  });

  it('opens kind-specific views for the kinds that have their own keys', () => {
    expect(viewOfResource('pods')).toBe('pods');
    expect(viewOfResource('deployments.apps')).toBe('deployments');
    expect(viewOfResource('configmaps')).toBe('resources');
  });

  it('renders the key table of the docs from the same map', () => {
    const table = keyTable((action) => action);
    expect(table.split('\n')[0]).toBe('| View | Key | Action |');
    expect(table).toContain('| pods | `ctrl-d` | delete (write; hidden by `--readonly`) |');
    expect(table).toContain('| every view | `?` | help |');
  });
});

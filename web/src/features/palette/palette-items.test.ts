import { describe, expect, it } from 'vitest';
import { exactKind, groupsInOrder, kindItems, objectPath, pageItems, rankItems, withObjectActions, type KindEntry, type PaletteItem } from './palette-items';

const kinds: KindEntry[] = [
  { kind: 'Pod', plural: 'pods', singular: 'pod', group: '', namespaced: true, shortNames: ['po'] },
  { kind: 'Deployment', plural: 'deployments', singular: 'deployment', group: 'apps', namespaced: true, shortNames: ['deploy'] },
  { kind: 'PodMetrics', plural: 'pods', singular: 'podmetrics', group: 'metrics.k8s.io', namespaced: true, shortNames: [] },
];

describe('command palette items', () => {
  it('jumps k9s-style: `:pods`, `:po` and `:deploy` name a kind exactly, core kinds first', () => {
    expect(exactKind(':pods', kinds)?.group).toBe('');
    expect(exactKind(':po', kinds)?.kind).toBe('Pod');
    expect(exactKind(' :deploy ', kinds)?.kind).toBe('Deployment');
    expect(exactKind('pods', kinds)).toBeUndefined();
    expect(exactKind(':nothing', kinds)).toBeUndefined();
  });

  it('links kinds of a group as plural.group and objects by namespace and name', () => {
    const items = kindItems(kinds);
    expect(items.map((item) => item.to)).toEqual(['/resources/pods', '/resources/deployments', '/resources/pods.metrics.k8s.io']);
    expect(items[0]?.keywords).toContain(':po');
    expect(objectPath('pods', 'web-1', 'shop')).toBe('/resources/pods/shop/web-1');
    expect(objectPath('nodes', 'node-a')).toBe('/resources/nodes/_/node-a');
  });

  it('offers admin pages to admins only', () => {
    const pages = [
      { path: '/overview', label: 'Overview' },
      { path: '/admin/mcp', label: 'MCP servers', adminOnly: true },
    ];
    expect(pageItems(pages, 'viewer').map((item) => item.to)).toEqual(['/overview']);
    expect(pageItems(pages, 'admin').map((item) => item.to)).toEqual(['/overview', '/admin/mcp']);
  });
});

describe('command palette ranking', () => {
  const object: PaletteItem = {
    id: 'object:deployments/shop/payments-worker',
    group: 'objects',
    label: 'payments-worker',
    hint: 'deployments · shop',
    keywords: ['deployments'],
    to: '/resources/deployments/shop/payments-worker',
    target: { resource: 'deployments', namespace: 'shop', name: 'payments-worker' },
  };
  const theme: PaletteItem = { id: 'action:theme', group: 'actions', label: 'Switch colour scheme', keywords: ['dark', 'light', 'theme'], action: 'theme' };
  const items = [...kindItems(kinds), object, theme];
  const labels = {
    logs: (name: string) => `Logs of ${name}`,
    events: (name: string) => `Events of ${name}`,
    ask: (name: string) => `Ask about ${name}`,
    question: (o: string) => `How is ${o}?`,
  };

  it('puts the object named by the search above kinds, and a kind typed in full above objects that start with it', () => {
    expect(rankItems(items, 'payments')[0]?.id).toBe(object.id);
    expect(rankItems(items, 'payments-worker')[0]?.id).toBe(object.id);
    expect(rankItems(items, 'deployments')[0]?.label).toBe('Deployment');
    expect(rankItems(items, 'zzz')).toEqual([]);
  });

  it('puts the closer of two names first', () => {
    const pod: PaletteItem = { ...object, id: 'object:pods/shop/payments-worker-7d9f-x2', label: 'payments-worker-7d9f-x2', keywords: ['pods'] };
    expect(rankItems([pod, object], 'payments')[0]?.id).toBe(object.id);
  });

  it('finds the theme toggle by "dark" and "theme"', () => {
    expect(rankItems(items, 'dark')[0]?.id).toBe('action:theme');
    expect(rankItems(items, 'theme')[0]?.id).toBe('action:theme');
  });

  it("offers an object's actions right after it, and orders groups by their best item", () => {
    const ranked = withObjectActions(rankItems(items, 'payments'), labels);
    expect(ranked.map((item) => item.label).slice(0, 3)).toEqual(['payments-worker', 'Events of payments-worker', 'Ask about payments-worker']);
    expect(ranked[1]?.to).toBe('/resources/deployments/shop/payments-worker/events');
    expect(ranked[2]).toMatchObject({ action: 'ask', question: 'How is deployment/payments-worker (namespace shop)?' });
    expect(groupsInOrder(rankItems(items, 'dark'))[0]?.[0]).toBe('actions');
  });
});

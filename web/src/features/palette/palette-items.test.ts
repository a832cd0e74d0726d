import { describe, expect, it } from 'vitest';
import { exactKind, kindItems, objectPath, pageItems, type KindEntry } from './palette-items';

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

import { describe, expect, it } from 'vitest';
import { childKinds, ingressServices, nodeLinks, ownerLinks, parseSelectorColumn, resourceOfKind, selectorOf, selects } from './related';
import { pickTab, tabsFor } from './object-tabs';

describe('related objects', () => {
  it('names the list of a kind', () => {
    expect(resourceOfKind('ReplicaSet')).toBe('replicasets');
    expect(resourceOfKind('Ingress')).toBe('ingresses');
    expect(resourceOfKind('NetworkPolicy')).toBe('networkpolicies');
  });

  it('turns selectors into label selectors', () => {
    expect(selectorOf({ kind: 'Service', spec: { selector: { app: 'web', tier: 'front' } } })).toBe('app=web,tier=front');
    expect(
      selectorOf({
        kind: 'Deployment',
        spec: {
          selector: {
            matchLabels: { app: 'web' },
            matchExpressions: [
              { key: 'env', operator: 'In', values: ['a', 'b'] },
              { key: 'x', operator: 'Exists' },
            ],
          },
        },
      }),
    ).toBe('app=web,env in (a,b),x');
    expect(selectorOf({ kind: 'Service', spec: {} })).toBeUndefined();
  });

  it('links owners and the node of a pod', () => {
    const pod = {
      kind: 'Pod',
      metadata: { namespace: 'shop', ownerReferences: [{ kind: 'ReplicaSet', name: 'web-1' }] },
      spec: { nodeName: 'node-a' },
    };
    expect(ownerLinks(pod)).toEqual([{ resource: 'replicasets', namespace: 'shop', name: 'web-1', relation: 'owner' }]);
    expect(nodeLinks(pod)).toEqual([{ resource: 'nodes', name: 'node-a', relation: 'node' }]);
    expect(childKinds('Deployment')).toEqual(['replicasets', 'pods']);
    expect(childKinds('ConfigMap')).toEqual([]);
  });
});

describe('what routes to a workload', () => {
  it('matches a service selector against the pod template labels', () => {
    expect(parseSelectorColumn('app=web,tier=front')).toEqual({ app: 'web', tier: 'front' });
    expect(parseSelectorColumn('<none>')).toBeUndefined();
    expect(selects({ app: 'web' }, { app: 'web', tier: 'front' })).toBe(true);
    expect(selects({ app: 'web', tier: 'back' }, { app: 'web', tier: 'front' })).toBe(false);
    expect(selects(undefined, { app: 'web' })).toBe(false);
  });

  it('finds the services an ingress routes to', () => {
    const ingress = {
      kind: 'Ingress',
      spec: {
        defaultBackend: { service: { name: 'fallback' } },
        rules: [{ http: { paths: [{ backend: { service: { name: 'web' } } }, { backend: { service: { name: 'web' } } }] } }],
      },
    };
    expect(ingressServices(ingress)).toEqual(['fallback', 'web']);
  });
});

describe('object tabs', () => {
  it('offers logs to pods and the terminal to writers only', () => {
    expect(tabsFor('pods', 'admin')).toContain('terminal');
    expect(tabsFor('pods', 'viewer')).toContain('logs');
    expect(tabsFor('pods', 'viewer')).not.toContain('terminal');
    expect(tabsFor('configmaps', 'user')).toEqual(['summary', 'yaml', 'describe', 'events', 'related']);
    expect(pickTab(tabsFor('pods', 'admin'), 'logs')).toBe('logs');
    expect(pickTab(tabsFor('configmaps', 'admin'), 'logs')).toBe('summary');
  });
});

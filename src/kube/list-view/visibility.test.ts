import { describe, expect, it } from 'vitest';
import { resourceRequestAttributes } from '../../rbac/resource-request.js';
import type { ResourceType } from '../discovery.js';
import { policyNamespaceOf } from './visibility.js';

const typeOf = (group: string, plural: string, namespaced: boolean): ResourceType => ({
  group,
  version: 'v1',
  kind: plural,
  plural,
  singular: plural,
  shortNames: [],
  namespaced,
  verbs: ['list'],
});

// Lists (kube, which does not know the policy) and object routes (the policy's request reading) must agree on
// the namespace an object is in, or a namespace hidden by a deny would show in a list.
describe('policyNamespaceOf', () => {
  it('puts a listed object where the policy puts a get of it', () => {
    const types = [typeOf('', 'namespaces', false), typeOf('', 'nodes', false), typeOf('', 'persistentvolumes', false), typeOf('', 'pods', true)];
    types.push(typeOf('rbac.authorization.k8s.io', 'clusterroles', false), typeOf('example.com', 'namespaces', false));
    for (const type of types) {
      const item = { name: 'x', namespace: type.namespaced ? 'ns' : undefined };
      const attributes = resourceRequestAttributes({
        verb: 'get',
        apiGroup: type.group,
        apiVersion: type.version,
        resource: type.plural,
        namespace: item.namespace ?? '',
        name: item.name,
      });
      expect(policyNamespaceOf(type)(item) ?? '', `${type.plural}.${type.group}`).toBe(attributes.namespace);
    }
  });
});

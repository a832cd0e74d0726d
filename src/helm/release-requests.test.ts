import { describe, expect, it } from 'vitest';
import type { ResourceType } from '../kube/discovery.js';
import { manifestObjects, releaseRequests } from './release-requests.js';

const type = (group: string, kind: string, plural: string, namespaced = true): ResourceType => ({
  group,
  version: 'v1',
  kind,
  plural,
  singular: kind.toLowerCase(),
  shortNames: [],
  namespaced,
  verbs: [],
});
const types = [
  type('', 'ConfigMap', 'configmaps'),
  type('apps', 'Deployment', 'deployments'),
  type('rbac.authorization.k8s.io', 'ClusterRole', 'clusterroles', false),
  type('', 'Pod', 'pods'),
];

const manifest = `---
# Source: demo/templates/configmap.yaml
apiVersion: v1
kind: ConfigMap
metadata: {name: a}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: b, namespace: other}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: c}
---
apiVersion: v1
kind: Pod
metadata: {name: test, annotations: {helm.sh/hook: test}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: again}
`;

const summary = (requests: ReturnType<typeof releaseRequests>) =>
  requests.map((entry) => `${entry.verb} ${entry.resource}${entry.namespace ? ` ${entry.namespace}` : ''}`);

describe('the requests a helm action amounts to', () => {
  it('reads the release Secrets of the release namespace', () => {
    expect(summary(releaseRequests('read', 'dev', [], types))).toEqual(['get secrets dev', 'list secrets dev']);
  });

  it('installs: the release Secret plus each kind of the manifest in its namespace, once', () => {
    expect(summary(releaseRequests('install', 'dev', manifestObjects(manifest), types))).toEqual([
      'create secrets dev',
      'create configmaps dev',
      'create deployments other',
      'create clusterroles',
      'create pods dev',
    ]);
  });

  it('upgrades with create and patch, uninstalls with delete (hooks are created)', () => {
    const objects = manifestObjects(manifest);
    expect(summary(releaseRequests('upgrade', 'dev', objects, types))).toContain('patch deployments other');
    const uninstall = summary(releaseRequests('uninstall', 'dev', objects, types));
    expect(uninstall).toEqual(['delete secrets dev', 'delete configmaps dev', 'delete deployments other', 'delete clusterroles', 'create pods dev']);
  });

  it('keeps the kind name of kinds discovery does not know, and reads List documents', () => {
    const objects = manifestObjects('apiVersion: v1\nkind: List\nitems:\n- {apiVersion: example.com/v1, kind: Widget, metadata: {name: w}}\n');
    expect(releaseRequests('install', 'dev', objects, types)[1]).toMatchObject({
      verb: 'create',
      apiGroup: 'example.com',
      resource: 'widget',
      namespace: 'dev',
    });
  });

  it('refuses a manifest that is not YAML', () => {
    expect(() => manifestObjects('a: [b')).toThrow(/not YAML/);
  });
});

import { describe, expect, it } from 'vitest';
import type { ClusterChange } from './cluster-set.js';
import type { ClusterConnection } from './connections.js';
import { parseClusterKubeconfig } from './kubeconfig.js';
import { secretRegistrations } from './secrets-provider.js';

const kubeconfig = [
  'apiVersion: v1',
  'clusters: [{name: remote, cluster: {server: "https://127.0.0.1:6443"}}]',
  'users: [{name: admin, user: {token: abc}}]',
  'contexts: [{name: remote, context: {cluster: remote, user: admin}}]',
  'current-context: remote',
].join('\n');

describe('the secrets provider', () => {
  it('reserves the configured names, holds what the watch reports and tells its watchers of each add, replace and remove', async () => {
    let built = 0;
    const { target, provider } = secretRegistrations(['home', 'prod'], (name, source) => {
      built += 1;
      return { name, source: 'secret', kubeConfig: source.kubeConfig, connection: { context: `${source.secret}#${built}` } } as ClusterConnection;
    });
    const changes: ClusterChange[] = [];
    const unsubscribe = provider.watch(async (change) => void changes.push(change));
    expect([target.reserved('home'), target.reserved('prod'), target.reserved('staging')]).toEqual([true, true, false]);
    const source = { ...parseClusterKubeconfig(kubeconfig, { inlineOnly: true }), secret: 'staging-secret' };
    await target.put('staging', source);
    expect(provider.list()).toEqual(['staging']);
    expect(provider.get('staging')?.connection.context).toBe('staging-secret#1');
    await target.put('staging', source);
    expect(provider.get('staging')?.connection.context).toBe('staging-secret#2');
    await target.remove('staging');
    await target.remove('staging');
    expect(changes).toEqual([
      { type: 'added', name: 'staging' },
      { type: 'replaced', name: 'staging' },
      { type: 'removed', name: 'staging' },
    ]);
    expect(provider.list()).toEqual([]);
    expect(provider.get('staging')).toBeUndefined();
    unsubscribe();
    await target.put('staging', source);
    expect(changes).toHaveLength(3);
  });
});

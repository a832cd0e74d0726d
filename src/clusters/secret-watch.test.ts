import { describe, expect, it } from 'vitest';
import { parseClusterKubeconfig } from './cluster-kubeconfig.js';
import { clusterSetTarget } from './cluster-secrets.js';
import { ClusterSet, type ClusterMember } from './cluster-set.js';

const kubeconfig = [
  'apiVersion: v1',
  'clusters: [{name: remote, cluster: {server: "https://127.0.0.1:6443"}}]',
  'users: [{name: admin, user: {token: abc}}]',
  'contexts: [{name: remote, context: {cluster: remote, user: admin}}]',
  'current-context: remote',
].join('\n');

describe('clusterSetTarget', () => {
  it('reserves the configured names, puts a built member (a replace closes the old one) and removes it', async () => {
    const closed: string[] = [];
    const clusters = new ClusterSet<ClusterMember & { secret: string }>('home');
    let built = 0;
    const target = clusterSetTarget(clusters, ['home', 'prod'], (name, source) => {
      const id = `${name}#${(built += 1)}`;
      return { name, source: 'secret', secret: source.secret, close: async () => void closed.push(id) };
    });
    expect([target.reserved('home'), target.reserved('prod'), target.reserved('staging')]).toEqual([true, true, false]);
    const source = { ...parseClusterKubeconfig(kubeconfig, { inlineOnly: true }), secret: 'staging-secret' };
    await target.put('staging', source);
    expect(clusters.get('staging')).toMatchObject({ source: 'secret', secret: 'staging-secret' });
    await target.put('staging', source);
    expect(closed).toEqual(['staging#1']);
    await target.remove('staging');
    expect(closed).toEqual(['staging#1', 'staging#2']);
    expect(clusters.has('staging')).toBe(false);
  });
});

import type { ClusterScope } from '../http/cluster-scope.js';
import type { ClusterSet } from '../kube/cluster-set.js';
import { ClusterSecretWatch, clusterSetTarget } from '../kube/cluster-secrets.js';
import { composeClusterScope, secretConnection, type ClusterScopeInputs } from './compose-clusters.js';

/**
 * The watch of cluster Secrets (ADR 0035), or undefined with `cluster.secrets: false`: labelled Secrets in
 * `kubernetes.namespace` of the home cluster, read with the service's own client, become cluster scopes of
 * `clusters` (source `secret`), replaced when their data changes and removed with them. The home cluster's
 * name and those of `clusters:` are reserved (the configuration wins). Started by the service once it runs.
 */
export function composeClusterSecrets(inputs: ClusterScopeInputs, clusters: ClusterSet<ClusterScope>): ClusterSecretWatch | undefined {
  const { config, logger, dataDir } = inputs;
  if (!config.cluster.secrets) return undefined;
  const reserved = [config.cluster.name, ...config.clusters.map((cluster) => cluster.name)];
  const target = clusterSetTarget(clusters, reserved, (name, source) => composeClusterScope(inputs, secretConnection(dataDir, name, source.kubeConfig)));
  const own = clusters.home.kube.forIdentity(undefined).rest;
  return new ClusterSecretWatch(own, config.kubernetes.namespace, target, logger.child({ component: 'cluster-secrets' }));
}

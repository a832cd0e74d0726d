import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import type { ClusterConfig, Config } from '../config/schema.js';
import type { PrometheusConfig } from '../config/prometheus-schema.js';
import { AppError } from '../errors.js';
import { loadKubeConfig, type KubeConnectionOptions } from '../kube/clients.js';
import type { Principal } from '../rbac/principal.js';
import type { ClusterSource } from './cluster-set.js';
import { loadClusterKubeconfigFile } from './kubeconfig.js';

/** One cluster's connection: a kubeconfig (a file for kubectl and helm) and where it came from. */
export interface ClusterConnection {
  name: string;
  source: ClusterSource;
  kubeConfig: KubeConfig;
  connection: KubeConnectionOptions;
  mappings?: Partial<Record<Principal['role'], string>>;
  /** Removed when the cluster is (a Secret's kubeconfig written for kubectl and helm). */
  ownedFile?: string;
  /** The cluster's own `prometheus:` (absent: detection with the home cluster's other settings). */
  prometheus?: PrometheusConfig;
}

/** Where the home cluster's kubeconfig comes from: `--kubeconfig`/`--context` (over config). */
export interface HomeConnectionOptions {
  kubeconfigPath?: string;
  context?: string;
}

/** The home cluster's connection: `--kubeconfig`/`--context` (or config), else in-cluster/default loading. */
export function homeConnection(config: Config, options: HomeConnectionOptions): ClusterConnection {
  const kubeconfigPath = options.kubeconfigPath ?? config.kubernetes.kubeconfig;
  const context = options.context ?? config.kubernetes.context;
  return { name: config.cluster.name, source: 'home', kubeConfig: loadKubeConfig({ kubeconfigPath, context }), connection: { kubeconfigPath, context } };
}

/** A refused kubeconfig names its cluster (`clusters[].name`) at start. */
function withClusterName<T>(name: string, load: () => T): T {
  try {
    return load();
  } catch (error) {
    throw new AppError('VALIDATION_ERROR', `clusters: "${name}": ${(error as Error).message}`, { cluster: name });
  }
}

/** A cluster of `clusters:` in config (its kubeconfig file, as kubectl reads it). */
export function configuredConnection(cluster: ClusterConfig): ClusterConnection {
  // The same check as a Secret's (the file, its context, cluster and user), file references and plugins allowed.
  const { kubeConfig, context } = withClusterName(cluster.name, () => loadClusterKubeconfigFile(cluster.kubeconfig, cluster.context));
  const connection = { kubeconfigPath: cluster.kubeconfig, context };
  return { name: cluster.name, source: 'config', kubeConfig, connection, mappings: cluster.impersonation.mappings, prometheus: cluster.prometheus };
}

/**
 * A cluster registered by a Secret: its (validated, inline-only) kubeconfig is written, readable by this
 * process's user only, under `<dataDir>/clusters/` for kubectl and helm, and removed with the cluster.
 */
export function secretConnection(dataDir: string, name: string, kubeConfig: KubeConfig): ClusterConnection {
  const folder = join(dataDir, 'clusters');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const file = join(folder, `${name}.kubeconfig`);
  writeFileSync(file, kubeConfig.exportConfig(), { mode: 0o600 });
  return { name, source: 'secret', kubeConfig, connection: { kubeconfigPath: file, context: kubeConfig.getCurrentContext() }, ownedFile: file };
}

/** A cluster's Prometheus settings: its own, or the top-level ones without their url or service (found by detection). */
export function prometheusConfigOf(config: Config, cluster: ClusterConnection): PrometheusConfig {
  if (cluster.prometheus) return cluster.prometheus;
  if (cluster.source === 'home') return config.prometheus;
  return { ...config.prometheus, url: undefined, service: undefined, auth: undefined };
}

import { AppError } from '../errors.js';
import { ensureCrds } from './crd-installer.js';
import { ensureReportAdmission } from './report-admission.js';
import type { Config } from '../config/schema.js';
import type { KubeClients } from '../kube/clients.js';
import type { ControllerManager } from './manager.js';
import type { Logger } from 'pino';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface BootstrapDeps {
  config: Config;
  controllers: ControllerManager;
  /** The home cluster (CRDs, the namespace and the controllers' objects live there). */
  home: { kube: KubeClients };
  logger: Logger;
  namespace: string;
}

/** Makes sure the Pilothouse namespace exists (best effort: the Helm chart normally creates it). */
async function ensureNamespace(deps: BootstrapDeps): Promise<void> {
  const rest = deps.home.kube.forIdentity(undefined).rest;
  try {
    await rest.json('GET', `/api/v1/namespaces/${deps.namespace}`);
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw error;
    await rest.json('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: deps.namespace } } });
  }
}

/**
 * Cluster-side start-up: install/update CRDs (and the Report requester admission policy) when
 * allowed, ensure our namespace, start the controllers (under leader election). A cluster that is down at start is logged, not fatal.
 */
export async function startClusterSide(deps: BootstrapDeps): Promise<void> {
  try {
    const rest = deps.home.kube.forIdentity(undefined).rest;
    if (deps.config.kubernetes.install_crds) await ensureCrds(rest, deps.logger);
    await ensureNamespace(deps);
    if (deps.config.kubernetes.install_crds) await ensureReportAdmission(rest, deps.namespace, deps.logger);
  } catch (error) {
    deps.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'cluster set-up incomplete; controllers start anyway and retry');
  }
  deps.controllers.start();
}

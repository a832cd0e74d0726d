import { join } from 'node:path';
import type { Logger } from 'pino';
import type { SecurityServices } from '../auth/security-services.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config/schema.js';
import { Controller } from '../controllers/controller.js';
import type { ControllerManager } from '../controllers/manager.js';
import { KubeEventRecorder } from '../controllers/events.js';
import { ReportReconciler } from '../controllers/report-reconciler.js';
import { reportKind, reportSchema, type Report } from '../crds/report.js';
import { AppError } from '../errors.js';
import type { ClusterScope, ClusterScopes } from '../clusters/scope.js';
import type { KubeClients } from '../kube/clients.js';
import { CustomClient } from '../kube/custom-client.js';
import type { ReportGenerator, ReportType } from '../reports/document/document.js';
import { createGenerators } from '../reports/generators.js';
import { renderers } from '../reports/render/index.js';
import { ReportFiles } from '../reports/report-files.js';
import { ReportRequests } from '../reports/report-requests.js';
import { RequesterDirectory } from '../reports/requesters.js';

/** What the reports area is built from. */
export interface ReportsComposeInput {
  config: Config;
  logger: Logger;
  dataDir: string;
  namespace: string;
  /** The home cluster's clients: Report objects and shared file copies live there. */
  kube: KubeClients;
  /** Every cluster: a report is generated from the scope its `spec.cluster` names (absent: home). */
  clusters: Pick<ClusterScopes, 'get' | 'homeName'>;
  security: Pick<SecurityServices, 'users' | 'mode'>;
  controllers: ControllerManager;
  clock: Clock;
}

/** The reports area as the HTTP routes see it. */
export interface ReportsArea {
  reportRequests: ReportRequests;
  /** Report objects in the Pilothouse namespace (service identity). */
  reportObjects: CustomClient<Report>;
}

/** The generators of one cluster: reading as the requester there (its clients, mapping, policy and helm). */
function generatorsOf(scope: ClusterScope, input: ReportsComposeInput): ReadonlyMap<ReportType, ReportGenerator> {
  const generatorList: ReportGenerator[] = createGenerators({
    clusterName: scope.name,
    identities: scope.identities,
    policy: scope.policy,
    ownClient: scope.kube.forIdentity(undefined),
    helm: scope.helm,
    trustedRegistries: input.config.reports.trusted_registries,
    clock: input.clock,
  });
  return new Map(generatorList.map((generator) => [generator.type, generator]));
}

/** Whether a namespace exists on a cluster, asked as the service there (an unknown cluster has none). */
async function namespaceExists(scope: ClusterScope | undefined, name: string): Promise<boolean> {
  if (!scope) return false;
  try {
    await scope.kube.forIdentity(undefined).rest.json('GET', `/api/v1/namespaces/${encodeURIComponent(name)}`);
    return true;
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return false;
    throw error;
  }
}

/**
 * Builds the reports area: generators (as the requester, per cluster), renderers, files (data dir +
 * shared copies in the home cluster), the requester directory, and the Report controller — leader
 * only, one generation at a time per replica.
 */
export function composeReports(input: ReportsComposeInput): ReportsArea {
  const { config, logger, namespace, clock, clusters } = input;
  const ownClient = input.kube.forIdentity(undefined);
  const reportObjects = new CustomClient<Report>(ownClient.rest, reportKind, namespace, reportSchema as never);
  const files = new ReportFiles(ownClient.rest, namespace, config.reports.directory ?? join(input.dataDir, 'reports'));
  // One generator set per cluster scope, built when a report first names it (a replaced scope gets its own).
  const built = new WeakMap<ClusterScope, ReadonlyMap<ReportType, ReportGenerator>>();
  const generators = (cluster: string | undefined): ReadonlyMap<ReportType, ReportGenerator> | undefined => {
    const scope = clusters.get(cluster ?? clusters.homeName);
    if (!scope) return undefined;
    const known = built.get(scope) ?? generatorsOf(scope, input);
    built.set(scope, known);
    return known;
  };
  const requesters = new RequesterDirectory({
    findUser: (username) => input.security.users.find(username),
    authMode: input.security.mode,
    tokenSettings: config.auth.token,
  });
  const reconciler = new ReportReconciler({
    reports: reportObjects,
    generators,
    renderers,
    files,
    requesters,
    clock,
    logger,
    retentionMs: config.reports.retention,
    events: new KubeEventRecorder(ownClient.rest, logger, clock),
    homeCluster: clusters.homeName,
  });
  const controller = new Controller(reportObjects, reconciler, logger, { concurrency: 1, baseDelayMs: 1000, maxDelayMs: 5 * 60_000 });
  input.controllers.register(controller);
  const reportRequests = new ReportRequests({
    reports: reportObjects,
    files,
    renderers,
    namespaceExists: (cluster, name) => namespaceExists(clusters.get(cluster), name),
    homeCluster: clusters.homeName,
  });
  return { reportRequests, reportObjects };
}

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
import type { HelmInvocations } from '../helm/helm-invocations.js';
import type { KubeClients } from '../kube/clients.js';
import { CustomClient } from '../kube/custom-client.js';
import type { IdentityResolver } from '../rbac/identities.js';
import type { PolicyEngine } from '../rbac/policy-engine.js';
import type { ReportGenerator, ReportType } from '../reports/document.js';
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
  kube: KubeClients;
  identities: IdentityResolver;
  policy: PolicyEngine;
  helm: HelmInvocations;
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

/**
 * Builds the reports area: generators (as the requester), renderers, files (data dir + shared
 * copies), the requester directory, and the Report controller — leader only, one generation at a
 * time per replica.
 */
export function composeReports(input: ReportsComposeInput): ReportsArea {
  const { config, logger, namespace, clock } = input;
  const ownClient = input.kube.forIdentity(undefined);
  const reportObjects = new CustomClient<Report>(ownClient.rest, reportKind, namespace, reportSchema as never);
  const files = new ReportFiles(ownClient.rest, namespace, config.reports.directory ?? join(input.dataDir, 'reports'));
  const generatorList: ReportGenerator[] = createGenerators({
    identities: input.identities,
    policy: input.policy,
    ownClient,
    helm: input.helm,
    trustedRegistries: config.reports.trusted_registries,
    clock,
  });
  const generators = new Map<ReportType, ReportGenerator>(generatorList.map((generator) => [generator.type, generator]));
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
  });
  const controller = new Controller(reportObjects, reconciler, logger, { concurrency: 1, baseDelayMs: 1000, maxDelayMs: 5 * 60_000 });
  input.controllers.register(controller);
  const namespaceExists = async (name: string): Promise<boolean> => {
    try {
      await ownClient.rest.json('GET', `/api/v1/namespaces/${encodeURIComponent(name)}`);
      return true;
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return false;
      throw error;
    }
  };
  return { reportRequests: new ReportRequests({ reports: reportObjects, files, renderers, namespaceExists }), reportObjects };
}

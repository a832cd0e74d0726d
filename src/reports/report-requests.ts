import { randomBytes } from 'node:crypto';
import { conflict, notFound, validation } from '../errors.js';
import type { Report } from '../crds/report.js';
import type { CustomClient } from '../kube/custom-client.js';
import { ownsOrAdministers } from '../rbac/ownership.js';
import type { Principal } from '../rbac/principal.js';
import type { ReportFormat, ReportRenderer, ReportType } from './document/document.js';
import { reportFileName } from './file-name.js';
import type { ReportFiles } from './report-files.js';
import { annotationsFor } from './requesters.js';

/** A report as the API shows it. */
export interface ReportView {
  id: string;
  type: string;
  format: string;
  namespace: string;
  /** The cluster the report is generated from (`spec.cluster`, else the home cluster). */
  cluster: string;
  status: string;
  progress: number;
  message: string | null;
  requester: string | null;
  createdAt: string | null;
  completedAt: string | null;
  size: number | null;
  fileName: string | null;
  conditions: NonNullable<NonNullable<Report['status']>['conditions']>;
}

/** The API view of a Report object (no status yet = `generating` at 0%); `homeCluster` names reports without `spec.cluster`. */
export function reportView(report: Report, homeCluster: string): ReportView {
  const status = { phase: 'generating' as const, progress: 0, conditions: [], ...report.status };
  return {
    id: report.metadata.name,
    type: report.spec.type,
    format: report.spec.format,
    namespace: report.spec.namespace ?? '',
    cluster: report.spec.cluster ?? homeCluster,
    status: status.phase,
    progress: status.progress,
    message: status.message || null,
    requester: report.spec.requester ?? null,
    createdAt: report.metadata.creationTimestamp ?? null,
    completedAt: status.completedAt ?? null,
    size: status.size ?? null,
    fileName: status.fileName ?? null,
    conditions: status.conditions,
  };
}

/** Why a report cannot be downloaded yet (409): still generating, or failed. */
function notReady(report: Report): Error | undefined {
  const status = { phase: 'generating', progress: 0, message: 'no reason given', ...report.status };
  if (status.phase === 'completed') return undefined;
  const id = report.metadata.name;
  const reason = status.phase === 'failed' ? `report ${id} failed: ${status.message}` : `report ${id} is still generating`;
  return conflict(reason, { id, status: status.phase, progress: status.progress });
}

/** A new report id (the Report object's name). */
export function newReportId(): string {
  return `report-${randomBytes(5).toString('hex')}`;
}

/** A downloadable file. */
export interface ReportFile {
  fileName: string;
  contentType: string;
  bytes: Buffer;
}

/**
 * Reports as callers see them: requested for themselves, listed, read, downloaded and deleted
 * under the one owner-or-admin rule (src/rbac/ownership.ts); another user's report is a 404.
 */
export class ReportRequests {
  constructor(
    private readonly deps: {
      reports: CustomClient<Report>;
      files: ReportFiles;
      renderers: Readonly<Record<ReportFormat, ReportRenderer>>;
      /** Whether a namespace exists on a cluster (asked as the service). */
      namespaceExists(cluster: string, name: string): Promise<boolean>;
      /** The home cluster's name: a report without `spec.cluster` is the home cluster's. */
      homeCluster: string;
    },
  ) {}

  /** The API view of a report (its cluster named). */
  view(report: Report): ReportView {
    return reportView(report, this.deps.homeCluster);
  }

  /** Creates the Report object `name` (see {@link newReportId}) for the caller, of `input.cluster`; the reconciler generates it. */
  async request(principal: Principal, name: string, input: { type: ReportType; format: ReportFormat; namespace?: string; cluster: string }): Promise<Report> {
    if (input.namespace && !(await this.deps.namespaceExists(input.cluster, input.namespace)))
      throw validation(`invalid request body: namespace: namespace ${input.namespace} does not exist`, { fields: { namespace: 'does not exist' } });
    const spec = {
      type: input.type,
      format: input.format,
      ...(input.namespace ? { namespace: input.namespace } : {}),
      requester: principal.username,
      cluster: input.cluster,
    };
    return this.deps.reports.create(name, spec, { 'pilothouse.dev/report-type': input.type }, annotationsFor(principal));
  }

  /** The caller's reports (all for admin), newest first; `cluster` keeps one cluster's. */
  async list(principal: Principal, cluster?: string): Promise<Report[]> {
    const { items } = await this.deps.reports.list();
    const home = this.deps.homeCluster;
    return items
      .filter((report) => ownsOrAdministers(principal, report.spec.requester) && (!cluster || (report.spec.cluster ?? home) === cluster))
      .sort((left, right) => (right.metadata.creationTimestamp ?? '').localeCompare(left.metadata.creationTimestamp ?? ''));
  }

  /** One report the caller may see; 404 otherwise (also for other users' reports). */
  async get(principal: Principal, id: string): Promise<Report> {
    const report = await this.deps.reports.get(id);
    if (!report || !ownsOrAdministers(principal, report.spec.requester)) throw notFound(`report ${id} not found`, { id });
    return report;
  }

  /** The finished file; 409 CONFLICT while generating, and for a failed report. */
  async download(principal: Principal, id: string): Promise<ReportFile> {
    const report = await this.get(principal, id);
    const refusal = notReady(report);
    if (refusal) throw refusal;
    const renderer = this.deps.renderers[report.spec.format];
    const bytes = await this.deps.files.read(id, renderer.extension);
    const fileName = report.status?.fileName ?? reportFileName(report.spec, report.metadata.creationTimestamp, renderer.extension);
    return { fileName, contentType: renderer.contentType, bytes };
  }

  /** Deletes the report object and its files. */
  async delete(principal: Principal, id: string): Promise<void> {
    await this.get(principal, id);
    await this.deps.reports.delete(id);
    await this.deps.files.remove(
      id,
      Object.values(this.deps.renderers).map((renderer) => renderer.extension),
    );
  }
}

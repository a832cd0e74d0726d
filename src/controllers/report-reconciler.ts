import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Report, ReportStatus } from '../crds/report.js';
import type { CustomClient } from '../kube/custom-client.js';
import type { ReportFormat, ReportGenerator, ReportRenderer, ReportType } from '../reports/document/document.js';
import { reportFileName } from '../reports/file-name.js';
import type { ReportFiles } from '../reports/report-files.js';
import type { RequesterDirectory } from '../reports/requesters.js';
import { StatusBuilder, type ReportStep } from '../reports/report-status.js';
import { noEvents, type EventNote, type EventRecorder } from './events.js';
import type { Reconciler, Result } from './reconciler.js';

/** What the reconciler uses (src/app/compose.ts hands it exactly these). */
export interface ReportReconcilerDeps {
  reports: CustomClient<Report>;
  /**
   * The generators of the cluster a report names (`spec.cluster`; absent: the home cluster); undefined when no
   * cluster has that name (removed meanwhile): the report then fails.
   */
  generators(cluster: string | undefined): ReadonlyMap<ReportType, ReportGenerator> | undefined;
  renderers: Readonly<Record<ReportFormat, ReportRenderer>>;
  files: ReportFiles;
  requesters: RequesterDirectory;
  clock: Clock;
  logger: Logger;
  /** `reports.retention` in milliseconds. */
  retentionMs: number;
  /** A generation taking longer fails (default 15 minutes). */
  timeoutMs?: number;
  /** Kubernetes Events for each transition (Generating, Completed, <Step>Failed, Expired). */
  events?: EventRecorder;
  /** The home cluster's name (`cluster.name`): `status.cluster` (the Cluster column) of reports without `spec.cluster`. */
  homeCluster?: string;
}

/** A step that failed: the step and the words of the failure. */
class StepFailure extends Error {
  constructor(
    readonly step: ReportStep,
    message: string,
  ) {
    super(message);
  }
}

/** Progress is written at most this often (plus at every new step). */
const progressIntervalMs = 400;

/**
 * Level-based Report reconciler (leader only, a queue of one: one generation at a time per
 * replica). A Report without a finished phase is generated: requester resolved (Accepted), data
 * collected by the type's generator (Collected), rendered (Rendered), stored (Stored), then
 * completed (Ready); any failing step leaves phase `failed` with the reason in `message` and in
 * its condition. Reports older than `reports.retention` are deleted with their files, and a
 * vanished Report's files are removed.
 */
export class ReportReconciler implements Reconciler {
  readonly name = 'report';
  private abort = new AbortController();

  constructor(private readonly deps: ReportReconcilerDeps) {}

  private announce(report: Report, event: Omit<EventNote, 'action'>): Promise<void> {
    return (this.deps.events ?? noEvents).record({ kind: 'Report', metadata: report.metadata }, { ...event, action: 'Reconcile' });
  }

  /** Removes files of Reports deleted while another replica led (this replica starts leading). */
  start(): void {
    void this.sweepFiles();
  }

  /** Aborts the generation in progress (leadership lost, shutdown). */
  stop(): void {
    this.abort.abort();
    this.abort = new AbortController();
  }

  /**
   * Removes local files of Reports that no longer exist: they were deleted while another replica led
   * (that replica removed the shared copies and its own file). Run when this replica starts leading.
   */
  async sweepFiles(): Promise<void> {
    try {
      const { items } = await this.deps.reports.list();
      const removed = await this.deps.files.sweep(new Set(items.map((report) => report.metadata.name)), this.extensions);
      if (removed > 0) this.deps.logger.info({ removed }, 'removed files of deleted reports');
    } catch (error) {
      this.deps.logger.warn({ err: describe(error) }, 'report files not swept');
    }
  }

  private get extensions(): string[] {
    return Object.values(this.deps.renderers).map((renderer) => renderer.extension);
  }

  async reconcile(key: string): Promise<Result> {
    const report = await this.deps.reports.get(key);
    if (!report) {
      await this.deps.files.remove(key, this.extensions);
      return {};
    }
    if (report.metadata.deletionTimestamp) return {};
    const remaining = this.retentionLeft(report);
    if (remaining <= 0) {
      this.deps.logger.info({ report: key }, 'report past retention, deleting');
      await this.announce(report, { type: 'Normal', reason: 'Expired', note: 'past reports.retention: deleted with its file' });
      await this.deps.reports.delete(key);
      await this.deps.files.remove(key, this.extensions);
      return {};
    }
    const phase = report.status?.phase;
    if (phase !== 'completed' && phase !== 'failed') await this.generate(report);
    return { requeueAfter: Math.min(remaining, 24 * 3_600_000) };
  }

  /** `status.cluster` (the Cluster column): `spec.cluster`, else the home cluster's name. */
  private clusterOf(report: Report): string {
    return report.spec.cluster ?? this.deps.homeCluster ?? 'home';
  }

  private retentionLeft(report: Report): number {
    const created = Date.parse(report.metadata.creationTimestamp ?? '');
    if (Number.isNaN(created)) return this.deps.retentionMs;
    return created + this.deps.retentionMs - this.deps.clock();
  }

  private async generate(report: Report): Promise<void> {
    const now = (): string => new Date(this.deps.clock()).toISOString();
    const builder = new StatusBuilder(report.status?.conditions ?? [], now).reset();
    // Every write carries status.cluster (the Cluster column), so a write the API server pruned is made good by the next.
    const write = (status: ReportStatus): Promise<void> => this.deps.reports.patchStatus(report.metadata.name, { ...status, cluster: this.clusterOf(report) });
    const stopped = this.abort.signal;
    await write(builder.status({ phase: 'generating', progress: 0, message: 'starting' }));
    await this.announce(report, { type: 'Normal', reason: 'Generating', note: `generating the ${report.spec.type} report (${report.spec.format})` });
    try {
      const status = await this.run(report, builder, write, stopped);
      await write(status);
      await this.announce(report, { type: 'Normal', reason: 'Completed', note: `${status.message ?? 'completed'}: ${status.size ?? 0} bytes` });
    } catch (error) {
      // Stopped leading (or shutting down): the report stays `generating` for the next leader to generate.
      if (stopped.aborted) return this.deps.logger.info({ report: report.metadata.name }, 'report generation stopped; the next leader generates it');
      const failure = error instanceof StepFailure ? error : new StepFailure('Ready', error instanceof Error ? error.message : String(error));
      builder.set(failure.step, 'False', 'Failed', failure.message).set('Ready', 'False', `${failure.step}Failed`, failure.message);
      this.deps.logger.info({ report: report.metadata.name, step: failure.step, err: failure.message }, 'report failed');
      await write(builder.status({ phase: 'failed', message: `${failure.step} step failed: ${failure.message}`, completedAt: now() }));
      await this.announce(report, { type: 'Warning', reason: `${failure.step}Failed`, note: failure.message });
    }
  }

  private async run(report: Report, builder: StatusBuilder, write: (status: ReportStatus) => Promise<void>, stopped: AbortSignal): Promise<ReportStatus> {
    const { spec } = report;
    const resolution = await this.deps.requesters.resolve(report);
    if ('problem' in resolution) throw new StepFailure('Accepted', resolution.problem);
    const generators = this.deps.generators(spec.cluster);
    if (!generators)
      throw new StepFailure('Accepted', `cluster ${spec.cluster ?? '(home)'} not found (not one of GET /api/clusters; removed, or never registered)`);
    const generator = generators.get(spec.type);
    if (!generator) throw new StepFailure('Accepted', `no generator for report type ${spec.type}`);
    const from = spec.cluster ? ` from cluster ${spec.cluster}` : '';
    builder.set('Accepted', 'True', 'RequesterResolved', `generated as ${resolution.principal.username} (role ${resolution.principal.role})${from}`);
    const progress = this.progressWriter(builder, write);
    const timeoutMs = this.deps.timeoutMs ?? 15 * 60_000;
    const signal = AbortSignal.any([stopped, AbortSignal.timeout(timeoutMs)]);
    const document = await generator
      .generate({ principal: resolution.principal, namespace: spec.namespace || undefined, progress: progress.report, signal })
      .catch((error: unknown) => {
        throw new StepFailure('Collected', signal.aborted ? `timed out after ${Math.round(timeoutMs / 1000)} s` : describe(error));
      });
    await progress.flush();
    builder.set('Collected', 'True', 'Collected', `${document.sections.length} sections`);
    await write(builder.status({ phase: 'generating', progress: 90, message: 'rendering' }));
    const renderer = this.deps.renderers[spec.format];
    const bytes = await renderer.render(document).catch((error: unknown) => {
      throw new StepFailure('Rendered', describe(error));
    });
    builder.set('Rendered', 'True', 'Rendered', `${bytes.length} bytes of ${spec.format}`);
    await this.deps.files.save({ name: report.metadata.name, uid: report.metadata.uid }, renderer.extension, bytes).catch((error: unknown) => {
      throw new StepFailure('Stored', describe(error));
    });
    builder.set('Stored', 'True', 'Stored', 'file stored').set('Ready', 'True', 'Completed', 'report ready to download');
    const fileName = reportFileName(spec, report.metadata.creationTimestamp, renderer.extension);
    const omitted = document.scope.omittedNamespaces.length;
    const message = omitted > 0 ? `completed; ${omitted} namespaces left out (not visible to the requester)` : 'completed';
    return builder.status({ phase: 'completed', progress: 100, message, completedAt: new Date(this.deps.clock()).toISOString(), size: bytes.length, fileName });
  }

  /** Turns the generator's progress (0–100 of collecting) into throttled status writes (5–85%). */
  private progressWriter(
    builder: StatusBuilder,
    write: (status: ReportStatus) => Promise<void>,
  ): { report: (percent: number, step: string) => void; flush: () => Promise<void> } {
    let last = { at: 0, step: '', percent: -1 };
    let pending: Promise<void> = Promise.resolve();
    const report = (percent: number, step: string): void => {
      const overall = 5 + Math.round((Math.max(0, Math.min(100, percent)) * 80) / 100);
      const now = this.deps.clock();
      if (overall === last.percent || (step === last.step && now - last.at < progressIntervalMs)) return;
      last = { at: now, step, percent: overall };
      builder.set('Collected', 'Unknown', 'InProgress', step);
      const status = builder.status({ phase: 'generating', progress: overall, message: step });
      pending = pending.then(() => write(status)).catch((error: unknown) => this.deps.logger.debug({ err: describe(error) }, 'report progress not written'));
    };
    return { report, flush: () => pending };
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

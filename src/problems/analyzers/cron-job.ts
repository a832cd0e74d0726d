import {
  ageOf,
  conditionEvidence,
  conditionDetail,
  nameOf,
  numberSetting,
  ownerOfKind,
  whereOf,
  type Analysis,
  type AnalysisContext,
  type Analyzer,
} from '../analyzer.js';
import type { FindingDraft } from '../finding.js';
import { conditionOf, controllerOf, type KubeThing, type WorkloadShape } from '../shapes.js';
import { validSchedule } from './cron-schedule.js';

const day = 86_400_000;

function ownedBy(cronJob: KubeThing): (job: KubeThing) => boolean {
  return (job) => {
    const owner = controllerOf(job);
    return owner?.kind === 'CronJob' && owner.name === nameOf(cronJob);
  };
}

function lastJobFailed(cronJob: WorkloadShape, context: AnalysisContext): FindingDraft | undefined {
  const created = (job: KubeThing): string => job.metadata?.creationTimestamp ?? '';
  const jobs = context.objects.list('Job', cronJob.metadata?.namespace ?? '').filter(ownedBy(cronJob));
  const last = jobs.sort((left, right) => created(left).localeCompare(created(right))).pop() as WorkloadShape | undefined;
  const failed = conditionOf(last?.status?.conditions, 'Failed');
  if (!last || failed?.status !== 'True') return undefined;
  return {
    severity: 'warning',
    reason: 'LastRunFailed',
    message: `The last run (job ${nameOf(last)}) failed: ${conditionDetail(failed)}`,
    evidence: [`job ${nameOf(last)} ${conditionEvidence(failed)}`],
    hint: `kubectl logs job/${whereOf(last)}`,
  };
}

function suspended(cronJob: WorkloadShape, context: AnalysisContext): Analysis {
  if (!cronJob.spec?.suspend) return { findings: [] };
  const limit = numberSetting(context, 'suspendedDays', 7) * day;
  const lastRun = cronJob.status?.lastScheduleTime;
  const age = ageOf(lastRun ?? cronJob.metadata?.creationTimestamp, context.now) ?? 0;
  if (age < limit) return { findings: [], recheckAt: context.now + (limit - age) };
  const finding: FindingDraft = {
    severity: 'info',
    reason: 'SuspendedForLong',
    message: `Suspended, and not run for ${Math.floor(age / day)} days`,
    evidence: ['spec.suspend: true', `status.lastScheduleTime: ${lastRun ?? 'never'}`],
    hint: `kubectl get cronjob/${whereOf(cronJob)} -o yaml`,
  };
  return { findings: [finding] };
}

function scheduleFinding(cronJob: WorkloadShape): FindingDraft[] {
  const schedule = cronJob.spec?.schedule ?? '';
  if (validSchedule(schedule)) return [];
  const message = `The schedule "${schedule}" is not a valid cron expression: it never runs`;
  return [
    {
      severity: 'critical',
      reason: 'InvalidSchedule',
      message,
      evidence: [`spec.schedule: ${schedule}`],
      hint: `kubectl get cronjob/${whereOf(cronJob)} -o yaml`,
    },
  ];
}

function analyzeCronJob(cronJob: WorkloadShape, context: AnalysisContext): Analysis {
  const failed = lastJobFailed(cronJob, context);
  const idle = suspended(cronJob, context);
  return { findings: [...scheduleFinding(cronJob), ...(failed ? [failed] : []), ...idle.findings], recheckAt: idle.recheckAt };
}

/** CronJobs: an invalid schedule, a last run that failed, suspended for long. */
export const cronJobAnalyzer: Analyzer = {
  name: 'cronjob',
  kind: 'CronJob',
  defaults: { suspendedDays: 7 },
  analyze: (object, context) => analyzeCronJob(object as WorkloadShape, context),
  dependents: { Job: ownerOfKind('CronJob') },
};

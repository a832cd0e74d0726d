import type { ReactNode } from 'react';
import { Facts, Lines, type Fact } from './Facts';
import { imagesOf, record, selectorText, strategyText, text } from './summary-model';

type Json = Record<string, unknown>;

/** Desired, ready, updated and available replicas of a Deployment, StatefulSet or DaemonSet. */
function replicaFacts(kind: string, spec: Json, status: Json): Fact[] {
  const count = (value: unknown): string => text(value) || '0';
  if (kind === 'DaemonSet')
    return [
      ['summary.desired', count(status.desiredNumberScheduled)],
      ['summary.readyReplicas', count(status.numberReady)],
      ['summary.updated', count(status.updatedNumberScheduled)],
      ['summary.available', count(status.numberAvailable)],
    ];
  return [
    ['summary.desired', text(spec.replicas) || '1'],
    ['summary.readyReplicas', count(status.readyReplicas)],
    ['summary.updated', count(status.updatedReplicas)],
    ['summary.available', kind === 'StatefulSet' ? count(status.currentReplicas) : count(status.availableReplicas)],
  ];
}

/** A Deployment, StatefulSet or DaemonSet: replicas desired/ready/updated, images, update strategy, selector. */
export function WorkloadSummary({ object, kind }: { object: Json; kind: string }): ReactNode {
  const spec = record(object.spec);
  const status = record(object.status);
  const template = record(record(spec.template).spec);
  const strategy = kind === 'Deployment' ? spec.strategy : spec.updateStrategy;
  return (
    <Facts
      title="summary.workload"
      facts={[
        ...replicaFacts(kind, spec, status),
        ['summary.images', <Lines values={imagesOf(template)} />],
        ['summary.strategy', strategyText(strategy)],
        ['summary.selector', <span className="mono small">{selectorText(spec.selector)}</span>],
        ['summary.paused', spec.paused === true ? 'true' : ''],
      ]}
    />
  );
}

/** A Job: completions, parallelism, active/succeeded/failed pods, start and completion; a CronJob: schedule, suspend, last run. */
export function JobSummary({ object, kind }: { object: Json; kind: string }): ReactNode {
  const spec = record(object.spec);
  const status = record(object.status);
  if (kind === 'CronJob') {
    const jobSpec = record(record(spec.jobTemplate).spec);
    return (
      <Facts
        title="summary.cronjob"
        facts={[
          ['summary.schedule', <span className="mono">{text(spec.schedule)}</span>],
          ['summary.suspend', spec.suspend === true ? 'true' : 'false'],
          ['summary.concurrency', text(spec.concurrencyPolicy)],
          ['summary.lastSchedule', text(status.lastScheduleTime) || '-'],
          ['summary.lastSuccess', text(status.lastSuccessfulTime) || '-'],
          ['summary.active', String(Array.isArray(status.active) ? status.active.length : 0)],
          ['summary.images', <Lines values={imagesOf(record(jobSpec.template).spec)} />],
        ]}
      />
    );
  }
  const count = (value: unknown): string => text(value) || '0';
  return (
    <Facts
      title="summary.job"
      facts={[
        ['summary.completions', `${count(status.succeeded)}/${text(spec.completions) || '1'}`],
        ['summary.parallelism', text(spec.parallelism)],
        ['summary.active', count(status.active)],
        ['summary.succeeded', count(status.succeeded)],
        ['summary.failed', <span className={Number(status.failed ?? 0) > 0 ? 'tone-bad' : undefined}>{count(status.failed)}</span>],
        ['summary.started', text(status.startTime)],
        ['summary.completed', text(status.completionTime)],
        ['summary.images', <Lines values={imagesOf(record(spec.template).spec)} />],
      ]}
    />
  );
}

import { conditionDetail, conditionEvidence, controllerRef, none, textOf, whereOf, type Analysis, type Analyzer } from '../analyzer.js';
import { conditionOf, type WorkloadShape } from '../shapes.js';

function analyzeJob(job: WorkloadShape): Analysis {
  const failed = conditionOf(job.status?.conditions, 'Failed');
  if (failed?.status !== 'True') return none;
  const evidence = [conditionEvidence(failed), `status.failed: ${textOf(job.status?.failed)}`];
  const message = `Job failed: ${conditionDetail(failed)}`;
  return {
    owner: controllerRef(job),
    findings: [{ severity: 'warning', reason: textOf(failed.reason) || 'Failed', message, evidence, hint: `kubectl logs job/${whereOf(job)}` }],
  };
}

/** Jobs that failed (the backoff limit reached, the deadline exceeded). */
export const jobAnalyzer: Analyzer = {
  name: 'job',
  kind: 'Job',
  analyze: (object) => analyzeJob(object as WorkloadShape),
};

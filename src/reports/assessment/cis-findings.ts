import type { Finding } from '../document/document.js';
import type { Pod } from '../context/kube-shapes.js';
import { count } from '../document/report-sections.js';
import { describeObject, groupByWorkload } from '../context/workload-owner.js';
import { cisChecks, type CisCheck } from './cis-checks.js';

/** Findings of the CIS workload checks, one per workload and rule; and a row per rule (workloads, pods). */
export function cisFindings(pods: Pod[]): { findings: Finding[]; rows: Array<Array<string | number>> } {
  const findings: Finding[] = [];
  const rows: Array<Array<string | number>> = [];
  for (const check of cisChecks) {
    const failing = pods.flatMap((pod) => {
      const offenders = check.test(pod);
      return offenders.length > 0 ? [{ pod, value: offenders }] : [];
    });
    const groups = groupByWorkload(failing);
    findings.push(...groups.map((group) => findingOf(check, group)));
    rows.push([check.rule, check.title, check.severity, groups.length, failing.length]);
  }
  return { findings, rows };
}

function findingOf(check: CisCheck, group: ReturnType<typeof groupByWorkload<string[]>>[number]): Finding {
  const offenders = [...new Set(group.values.flat())].filter((name) => name !== 'pod');
  const which = offenders.length > 0 ? `: ${offenders.slice(0, 5).join(', ')}` : '';
  return {
    rule: check.rule,
    severity: check.severity,
    title: `${describeObject(group.workload)} ${check.title}${which} (${count(group.pods.length, 'pod')})`,
    object: group.workload,
    why: check.why,
    fix: check.fix,
  };
}

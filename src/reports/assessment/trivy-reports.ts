import { AppError } from '../../errors.js';
import type { Finding, FindingObject } from '../document/document.js';
import type { Metadata } from '../context/kube-shapes.js';
import type { RawObject } from '../context/requester-reader.js';
import type { ReportContext } from '../context/report-context.js';
import { refs } from '../document/resource-refs.js';
import { describeObject, objectKey } from '../context/workload-owner.js';

/** Trivy Operator's VulnerabilityReport (aquasecurity.github.io/v1alpha1): one per workload container. */
interface VulnerabilityReport extends RawObject {
  metadata?: Metadata;
  report?: {
    artifact?: { repository?: string; tag?: string; digest?: string };
    registry?: { server?: string };
    summary?: { criticalCount?: number; highCount?: number; mediumCount?: number; lowCount?: number };
  };
}

/** CVE counts of one workload, summed over its containers' reports. */
export interface WorkloadCves {
  workload: FindingObject;
  images: string[];
  critical: number;
  high: number;
  medium: number;
  low: number;
}

const label = (report: VulnerabilityReport, name: string): string | undefined => report.metadata?.labels?.[`trivy-operator.resource.${name}`];

function imageOf(report: VulnerabilityReport): string {
  const artifact = report.report?.artifact;
  const server = report.report?.registry?.server;
  const repository = [server, artifact?.repository].filter(Boolean).join('/');
  return artifact?.tag ? `${repository}:${artifact.tag}` : repository;
}

function workloadOfReport(report: VulnerabilityReport): FindingObject {
  const name = label(report, 'name') ?? report.metadata?.name ?? '';
  return { kind: label(report, 'kind') ?? 'Workload', name, namespace: label(report, 'namespace') ?? report.metadata?.namespace };
}

function add(entry: WorkloadCves, report: VulnerabilityReport): void {
  const summary = report.report?.summary ?? {};
  entry.critical += summary.criticalCount ?? 0;
  entry.high += summary.highCount ?? 0;
  entry.medium += summary.mediumCount ?? 0;
  entry.low += summary.lowCount ?? 0;
  entry.images.push(imageOf(report));
}

function perWorkload(reports: VulnerabilityReport[]): WorkloadCves[] {
  const workloads = new Map<string, WorkloadCves>();
  for (const report of reports) {
    const workload = workloadOfReport(report);
    const key = objectKey(workload);
    const entry = workloads.get(key) ?? { workload, images: [], critical: 0, high: 0, medium: 0, low: 0 };
    add(entry, report);
    workloads.set(key, entry);
  }
  return [...workloads.values()].sort((left, right) => right.critical - left.critical || right.high - left.high);
}

/**
 * CVE counts per workload from Trivy Operator's VulnerabilityReports, as the requester may read
 * them; `undefined` with a note when the cluster has no such CRD.
 */
export async function readTrivyReports(context: ReportContext): Promise<{ workloads?: WorkloadCves[]; note: string }> {
  try {
    const reports = await context.list<VulnerabilityReport>(refs.vulnerabilityReports);
    return { workloads: perWorkload(reports), note: `${reports.length} Trivy Operator VulnerabilityReports read.` };
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND')
      return { note: 'Trivy Operator is not installed (no VulnerabilityReport CRD): no CVE counts.' };
    if (error instanceof AppError) return { note: `Trivy Operator VulnerabilityReports could not be read: ${error.message}` };
    throw error;
  }
}

/** One finding per workload with critical or high CVEs. */
export function cveFinding(entry: WorkloadCves): Finding | undefined {
  if (entry.critical === 0 && entry.high === 0) return undefined;
  const critical = entry.critical > 0;
  return {
    rule: critical ? 'vulnerability.critical-cves' : 'vulnerability.high-cves',
    severity: critical ? 'critical' : 'high',
    title: `${describeObject(entry.workload)} has ${entry.critical} critical and ${entry.high} high CVEs (Trivy)`,
    object: entry.workload,
    why: `Trivy Operator found known vulnerabilities in ${entry.images.join(', ')}; critical and high ones are often exploitable remotely.`,
    fix: 'Rebuild on a patched base image or upgrade the affected packages, then redeploy; see the VulnerabilityReport for the CVE ids and fixed versions.',
  };
}

import { helmClusterArgs, runHelm, runHelmJson, type HelmInvocation } from './helm-runner.js';

/** What the list and the details both say of a release. */
interface ReleaseSummary {
  name: string;
  namespace: string;
  revision: number;
  status: string;
  chart: string;
  appVersion: string;
}

/** A release as the list shows it. */
export interface ReleaseItem extends ReleaseSummary {
  updated: string;
}

interface HelmListEntry {
  name: string;
  namespace: string;
  revision: string;
  status: string;
  chart: string;
  app_version: string;
  updated: string;
}

export interface ChartSource {
  name: string;
  namespace: string;
  chart: string;
  repo?: string;
  version?: string;
  values: Record<string, unknown>;
}

interface HelmStatus {
  name: string;
  namespace: string;
  version: number;
  info: { status: string; first_deployed?: string; last_deployed?: string; description?: string; notes?: string };
  chart?: { metadata?: { name?: string; version?: string; appVersion?: string } };
}

/** A release's details (`helm status`). */
export interface ReleaseDetails extends ReleaseSummary {
  firstDeployed: string | null;
  lastDeployed: string | null;
  description: string;
  notes: string;
}

function details(status: HelmStatus): ReleaseDetails {
  const metadata = status.chart?.metadata ?? {};
  return {
    name: status.name,
    namespace: status.namespace,
    revision: status.version,
    status: status.info.status,
    chart: metadata.name ? `${metadata.name}-${metadata.version ?? ''}` : '',
    appVersion: metadata.appVersion ?? '',
    firstDeployed: status.info.first_deployed ?? null,
    lastDeployed: status.info.last_deployed ?? null,
    description: status.info.description ?? '',
    notes: status.info.notes ?? '',
  };
}

/** `helm list` (all namespaces when `namespace` is absent). */
export async function listReleases(helm: HelmInvocation, namespace?: string): Promise<ReleaseItem[]> {
  const scope = namespace ? ['-n', namespace] : ['--all-namespaces'];
  const entries = await runHelmJson<HelmListEntry[]>(helm, ['list', '--all', ...scope, ...helmClusterArgs(helm)]);
  return entries.map((entry) => ({
    name: entry.name,
    namespace: entry.namespace,
    revision: Number(entry.revision),
    status: entry.status,
    chart: entry.chart,
    appVersion: entry.app_version,
    updated: entry.updated,
  }));
}

/** The release, its values (on stdin, never a file of the caller's choosing) and the chart directory. */
function chartArgs(source: ChartSource, chartDirectory: string): string[] {
  return [source.name, chartDirectory, '-n', source.namespace, '--values', '-'];
}

/** `helm install` of a pinned chart (src/helm/pinned-chart.ts). */
export async function installRelease(helm: HelmInvocation, source: ChartSource, chartDirectory: string, createNamespace: boolean): Promise<ReleaseDetails> {
  const args = ['install', ...chartArgs(source, chartDirectory), ...(createNamespace ? ['--create-namespace'] : []), ...helmClusterArgs(helm)];
  return details(await runHelmJson<HelmStatus>(helm, args, JSON.stringify(source.values)));
}

/** `helm upgrade` to a pinned chart with the given values (replacing the previous ones). */
export async function upgradeRelease(helm: HelmInvocation, source: ChartSource, chartDirectory: string): Promise<ReleaseDetails> {
  const args = ['upgrade', ...chartArgs(source, chartDirectory), ...helmClusterArgs(helm)];
  return details(await runHelmJson<HelmStatus>(helm, args, JSON.stringify(source.values)));
}

/** The chart annotations of a release's current revision (`helm get metadata`; where Pilothouse records the chart's origin). */
export async function releaseChartAnnotations(helm: HelmInvocation, name: string, namespace: string): Promise<Record<string, string>> {
  const metadata = await runHelmJson<{ annotations?: Record<string, string> | null }>(helm, [
    'get',
    'metadata',
    name,
    '-n',
    namespace,
    ...helmClusterArgs(helm),
  ]);
  return metadata.annotations ?? {};
}

/** `helm uninstall`. */
export async function uninstallRelease(helm: HelmInvocation, name: string, namespace: string): Promise<{ name: string; namespace: string; uninstalled: true }> {
  await runHelm(helm, ['uninstall', name, '-n', namespace, ...helmClusterArgs(helm)]);
  return { name, namespace, uninstalled: true };
}

/** What `helm get metadata -o json` says of a release's chart. */
interface HelmMetadata {
  chart?: string;
  version?: string;
  appVersion?: string;
}

/**
 * `helm status` (status, times, description, NOTES) with the chart and app version of `helm get metadata`: helm
 * strips the chart from `helm status -o json`, so its `chart.metadata` is never there.
 */
export async function releaseDetails(helm: HelmInvocation, name: string, namespace: string): Promise<ReleaseDetails> {
  const where = [name, '-n', namespace, ...helmClusterArgs(helm)];
  const [status, metadata] = await Promise.all([
    runHelmJson<HelmStatus>(helm, ['status', ...where]),
    runHelmJson<HelmMetadata>(helm, ['get', 'metadata', ...where]),
  ]);
  const chart = metadata.chart ? { metadata: { name: metadata.chart, version: metadata.version, appVersion: metadata.appVersion } } : status.chart;
  return details({ ...status, chart });
}

/** `helm history`: [{revision, updated, status, chart, appVersion, description}]. */
export async function releaseHistory(helm: HelmInvocation, name: string, namespace: string): Promise<Record<string, unknown>[]> {
  const entries = await runHelmJson<{ revision: number; updated: string; status: string; chart: string; app_version: string; description: string }[]>(helm, [
    'history',
    name,
    '-n',
    namespace,
    ...helmClusterArgs(helm),
  ]);
  return entries.map((entry) => ({
    revision: entry.revision,
    updated: entry.updated,
    status: entry.status,
    chart: entry.chart,
    appVersion: entry.app_version,
    description: entry.description,
  }));
}

/** `helm get values` (user-supplied, or computed with `all`). */
export async function releaseValues(helm: HelmInvocation, name: string, namespace: string, all: boolean): Promise<Record<string, unknown>> {
  const values = await runHelmJson<Record<string, unknown> | null>(helm, [
    'get',
    'values',
    name,
    '-n',
    namespace,
    ...(all ? ['--all'] : []),
    ...helmClusterArgs(helm),
  ]);
  return values ?? {};
}

/** `helm get manifest` (YAML text). */
export function releaseManifest(helm: HelmInvocation, name: string, namespace: string): Promise<string> {
  return runHelm(helm, ['get', 'manifest', name, '-n', namespace, ...helmClusterArgs(helm)]);
}

/** `helm rollback` (revision 0 = the previous one). */
export async function rollbackRelease(helm: HelmInvocation, name: string, namespace: string, revision: number): Promise<ReleaseDetails> {
  await runHelm(helm, ['rollback', name, ...(revision > 0 ? [String(revision)] : []), '-n', namespace, ...helmClusterArgs(helm)]);
  return releaseDetails(helm, name, namespace);
}

/** One release as `GET /api/helm/releases` lists it. */
export interface Release {
  name: string;
  namespace: string;
  revision: number;
  status: string;
  chart: string;
  appVersion: string;
  updated: string;
}

/** `GET /api/helm/releases/{name}` (helm status). */
export interface ReleaseDetails extends Omit<Release, 'updated'> {
  firstDeployed: string | null;
  lastDeployed: string | null;
  description: string;
  notes: string;
}

export interface HistoryEntry {
  revision: number;
  updated: string;
  status: string;
  chart: string;
  appVersion: string;
  description: string;
}

/** One result of `GET /api/helm/charts` (helm search repo). */
export interface ChartHit {
  name: string;
  version: string;
  appVersion: string;
  description: string;
}

export interface Repository {
  name: string;
  url: string;
}

/** `nginx-1.2.3` → `nginx` (helm status names the chart with its version). */
export function chartNameOf(chart: string): string {
  const match = /^(.*)-v?\d+\.\d+\.\d+.*$/.exec(chart);
  return match?.[1] ?? chart;
}

/** The tone of a release status. */
export function statusTone(status: string): string | undefined {
  if (status === 'deployed' || status === 'superseded') return 'tone-good';
  if (status === 'failed') return 'tone-bad';
  if (status.startsWith('pending') || status === 'uninstalling') return 'tone-warn';
  return undefined;
}

/** The path of a release page. */
export function releasePath(release: { namespace: string; name: string }): string {
  return `/helm/releases/${encodeURIComponent(release.namespace)}/${encodeURIComponent(release.name)}`;
}

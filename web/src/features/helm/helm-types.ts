import type { components } from '@pilothouse/wire/types';

/** The helm API's wire shapes: aliases of the generated schemas (never declared here by hand). */
type Schemas = components['schemas'];

/** One release as `GET /api/helm/releases` lists it. */
export type Release = Schemas['HelmRelease'];
/** `GET /api/helm/releases/{name}` (helm status). */
export type ReleaseDetails = Schemas['HelmReleaseDetails'];
export type HistoryEntry = Schemas['HelmHistoryEntry'];
/** One result of `GET /api/helm/charts` (helm search repo). */
export type ChartHit = Schemas['ChartHit'];
export type Repository = Schemas['HelmRepository'];

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

import * as yaml from 'js-yaml';
import { AppError } from '../errors.js';
import { helmClusterArgs, runHelm, runHelmJson, type HelmInvocation } from './helm-runner.js';
import type { ChartArchive } from './chart-archive.js';
import type { ChartSource } from './releases.js';

/** A change to a release that renders a chart. */
export interface ChartChange {
  action: 'install' | 'upgrade';
  source: ChartSource;
}

/** What one rendering of a chart amounts to: the exact text the pinned chart installs (src/helm/pinned-chart.ts). */
export interface RenderedRelease {
  /** The release's objects (hooks apart), as helm rendered them with cluster access. */
  manifest: string;
  /** Every hook of the release (test hooks included), one document each. */
  hooks: string;
  /** The chart's and its subcharts' `crds/` files, which helm install creates first (install only; upgrade leaves CRDs alone). */
  crds: string;
  notes: string;
  /** The chart's own metadata and default values. */
  metadata: Record<string, unknown>;
  values: Record<string, unknown>;
}

interface DryRunRelease {
  manifest?: string;
  hooks?: { manifest?: string }[] | null;
  info?: { notes?: string };
  chart?: { metadata?: Record<string, unknown>; values?: Record<string, unknown> | null };
}

/** helm's dry-run maps each object to a served kind: the kinds of a chart's own crds/ are not served before the install. */
const kindsOfOwnCrds = /ensure CRDs are installed first|no matches for kind/i;

/**
 * The rendering when the chart's templates use the kinds of its own `crds/`: `helm template` with
 * `--dry-run=server` (lookup reads the cluster as the caller; Capabilities are helm's defaults). Its
 * text holds the hooks too (helm sorts them by their annotation when it installs).
 */
async function renderWithoutMapping(helm: HelmInvocation, source: ChartSource, archive: ChartArchive): Promise<DryRunRelease> {
  const args = ['template', source.name, archive.file, '-n', source.namespace, '--dry-run=server', '--values', '-', ...helmClusterArgs(helm)];
  const [manifest, chart, values] = await Promise.all([
    runHelm(helm, args, JSON.stringify(source.values)),
    runHelm(helm, ['show', 'chart', archive.file]),
    runHelm(helm, ['show', 'values', archive.file]),
  ]);
  const asObject = (text: string): Record<string, unknown> =>
    text.trim() === '' ? {} : ((yaml.load(text, { schema: yaml.JSON_SCHEMA }) as Record<string, unknown> | null) ?? {});
  return { manifest, chart: { metadata: asObject(chart), values: asObject(values) } };
}

/**
 * Renders the change once, as helm would apply it: `helm install|upgrade --dry-run=server` of the
 * fetched archive as the caller's cluster identity, with the caller's values (so `lookup`,
 * `.Capabilities` and `.Release` are the cluster's), plus `helm show crds` for an install.
 */
export async function renderRelease(helm: HelmInvocation, change: ChartChange, archive: ChartArchive): Promise<RenderedRelease> {
  const { action, source } = change;
  const args = [action, source.name, archive.file, '-n', source.namespace, '--dry-run=server', '--values', '-', ...helmClusterArgs(helm)];
  const crds = action === 'install' ? await runHelm(helm, ['show', 'crds', archive.file]) : '';
  const release = await runHelmJson<DryRunRelease>(helm, args, JSON.stringify(source.values)).catch((error: unknown) => {
    if (crds.trim() === '' || !(error instanceof AppError) || !kindsOfOwnCrds.test(String(error.details.message))) throw error;
    return renderWithoutMapping(helm, source, archive);
  });
  return {
    manifest: release.manifest ?? '',
    hooks: (release.hooks ?? []).map((hook) => hook.manifest ?? '').join('\n---\n'),
    crds,
    notes: release.info?.notes ?? '',
    metadata: release.chart?.metadata ?? {},
    values: release.chart?.values ?? {},
  };
}

/** Everything the rendering creates, for authorization: objects, hooks and CRDs. */
export function renderedObjects(rendered: RenderedRelease): string {
  return [rendered.crds, rendered.manifest, rendered.hooks].join('\n---\n');
}

/** The current revision of a release (`helm history`), or 0 when it has none. */
async function currentRevision(helm: HelmInvocation, name: string, namespace: string): Promise<number> {
  const entries = await runHelmJson<{ revision: number }[]>(helm, ['history', name, '-n', namespace, ...helmClusterArgs(helm)]);
  return Math.max(0, ...entries.map((entry) => entry.revision));
}

/**
 * The stored manifest and hooks of a release revision (default: the current one; for a rollback
 * to revision 0 the previous one, as helm does).
 */
export async function storedManifest(helm: HelmInvocation, name: string, namespace: string, revision?: number): Promise<string> {
  let target = revision;
  if (target === 0) target = Math.max(1, (await currentRevision(helm, name, namespace)) - 1);
  const scope = [name, '-n', namespace, ...(target ? ['--revision', String(target)] : []), ...helmClusterArgs(helm)];
  const [manifest, hooks] = await Promise.all([runHelm(helm, ['get', 'manifest', ...scope]), runHelm(helm, ['get', 'hooks', ...scope])]);
  return `${manifest}\n---\n${hooks}`;
}

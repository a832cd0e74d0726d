import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { pullChart } from './chart-archive.js';
import type { HelmInvocation } from './helm-runner.js';
import { originAnnotations, writePinnedChart } from './pinned-chart.js';
import { installRelease, releaseChartAnnotations, upgradeRelease, type ChartSource, type ReleaseDetails } from './releases.js';
import { renderedObjects, renderRelease, type ChartChange } from './rendering.js';

/** An install or upgrade rendered once and ready to apply: what it creates is known before anything is applied. */
export interface PreparedChange {
  /** Everything the change creates (CRDs, objects, hooks), as one multi-document manifest for authorization. */
  objects: string;
  /** sha256 of the chart archive that was fetched, rendered and pinned. */
  digest: string;
  /** Installs or upgrades to the pinned chart: exactly `objects`, never a second rendering of the chart. */
  apply(): Promise<ReleaseDetails>;
  /** Removes the change's workspace (archive and pinned chart). */
  dispose(): Promise<void>;
}

/**
 * Fetches the chart once (`helm pull`), renders it once with cluster access (`--dry-run=server`)
 * and writes the pinned chart that installs that rendering verbatim (src/helm/pinned-chart.ts),
 * all in a workspace under Helm's data directory. The caller authorizes `objects`, then applies.
 */
export async function prepareChange(helm: HelmInvocation, change: ChartChange & { createNamespace: boolean }): Promise<PreparedChange> {
  await mkdir(helm.homeDirectory, { recursive: true });
  const workspace = await mkdtemp(path.join(helm.homeDirectory, 'change-'));
  const dispose = (): Promise<void> => rm(workspace, { recursive: true, force: true });
  try {
    const archiveDirectory = path.join(workspace, 'archive');
    await mkdir(archiveDirectory);
    const archive = await pullChart(helm, change.source, archiveDirectory);
    const rendered = await renderRelease(helm, change, archive);
    const chartDirectory = await writePinnedChart(path.join(workspace, 'chart'), rendered, { repo: change.source.repo, digest: archive.digest });
    const apply = (): Promise<ReleaseDetails> =>
      change.action === 'install'
        ? installRelease(helm, change.source, chartDirectory, change.createNamespace)
        : upgradeRelease(helm, change.source, chartDirectory);
    return { objects: renderedObjects(rendered), digest: archive.digest, apply, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/**
 * The chart source of an upgrade: as sent, or, when it names neither a repository URL nor a
 * `repo/chart`, the repository the release's chart came from (recorded at install).
 */
export async function upgradeSource(helm: HelmInvocation, source: ChartSource): Promise<ChartSource> {
  if (source.repo !== undefined || source.chart.includes('/')) return source;
  const repo = (await releaseChartAnnotations(helm, source.name, source.namespace))[originAnnotations.repository];
  return repo ? { ...source, repo } : source;
}

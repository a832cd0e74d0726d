import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../errors.js';
import { runHelm, type HelmInvocation } from './helm-runner.js';
import type { ChartSource } from './releases.js';

/** One fetched chart archive: the only copy of the chart a change renders and installs from. */
export interface ChartArchive {
  /** The `.tgz` file inside the change's workspace. */
  file: string;
  /** `sha256:<hex>` of the archive (recorded on the release as `pilothouse.dev/chart-digest`). */
  digest: string;
}

/**
 * `helm pull` of the caller's chart reference (`name` with `--repo`, or `repo/name` of the shared
 * repository file) into `directory`. Never a path on the Pilothouse host: pull reads repositories only.
 */
export async function pullChart(helm: HelmInvocation, source: Pick<ChartSource, 'chart' | 'repo' | 'version'>, directory: string): Promise<ChartArchive> {
  const args = ['pull', source.chart, '--destination', directory, ...(source.repo ? ['--repo', source.repo] : [])];
  await runHelm(helm, [...args, ...(source.version ? ['--version', source.version] : [])]);
  const archives = (await readdir(directory)).filter((entry) => entry.endsWith('.tgz'));
  if (archives.length !== 1) throw new AppError('K8S_ERROR', 'helm pull did not leave one chart archive', { archives: archives.length });
  const file = path.join(directory, archives[0] ?? '');
  const digest = `sha256:${createHash('sha256')
    .update(await readFile(file))
    .digest('hex')}`;
  return { file, digest };
}

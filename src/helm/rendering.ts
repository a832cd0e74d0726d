import { helmClusterArgs, runHelm, runHelmJson, type HelmInvocation } from './helm-runner.js';
import type { ChartSource } from './releases.js';

/**
 * `helm template`: the manifest (hooks included) an install or upgrade would apply, rendered on
 * the Pilothouse host without touching the cluster, for authorization before helm runs.
 */
export function renderChart(helm: HelmInvocation, source: ChartSource, upgrade: boolean): Promise<string> {
  const args = [
    'template',
    source.name,
    source.chart,
    '-n',
    source.namespace,
    ...(source.repo ? ['--repo', source.repo] : []),
    ...(source.version ? ['--version', source.version] : []),
    '--values',
    '-',
  ];
  return runHelm(helm, [...args, ...(upgrade ? ['--is-upgrade'] : [])], JSON.stringify(source.values));
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

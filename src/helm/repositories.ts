import { AppError } from '../errors.js';
import { runHelm, runHelmJson, type HelmInvocation } from './helm-runner.js';

/** `helm repo list` ([] when none). */
export async function listRepositories(helm: HelmInvocation): Promise<{ name: string; url: string }[]> {
  try {
    return await runHelmJson<{ name: string; url: string }[]>(helm, ['repo', 'list']);
  } catch (error) {
    if (error instanceof AppError && /no repositories/i.test(String(error.details.message))) return [];
    throw error;
  }
}

/**
 * `helm repo add` (fetches the index, so a bad URL fails here). The caller has already checked the
 * URL and whether an existing name may be repointed; `--force-update` then replaces its entry.
 */
export async function addRepository(helm: HelmInvocation, name: string, url: string): Promise<{ name: string; url: string }> {
  await runHelm(helm, ['repo', 'add', '--force-update', '--', name, url]);
  return { name, url };
}

/** `helm repo remove`. */
export async function removeRepository(helm: HelmInvocation, name: string): Promise<{ name: string; removed: true }> {
  await runHelm(helm, ['repo', 'remove', '--', name]);
  return { name, removed: true };
}

/** `helm repo update [names...]`; with no repositories there is nothing to update (`updated: []`), not an error. */
export async function updateRepositories(helm: HelmInvocation, names: string[]): Promise<{ updated: string[] }> {
  if (names.length === 0 && (await listRepositories(helm)).length === 0) return { updated: [] };
  await runHelm(helm, ['repo', 'update', '--', ...names]);
  return { updated: names.length > 0 ? names : (await listRepositories(helm)).map((repository) => repository.name) };
}

/** `helm search repo`: [{name, version, appVersion, description}]. */
export async function searchCharts(helm: HelmInvocation, keyword: string, versions: boolean): Promise<Record<string, string>[]> {
  const entries = await runHelmJson<{ name: string; version: string; app_version: string; description: string }[]>(helm, [
    'search',
    'repo',
    ...(versions ? ['--versions'] : []),
    // After `--` helm reads the keyword as an argument even if it looks like a flag.
    ...(keyword ? ['--', keyword] : []),
  ]);
  return entries.map((entry) => ({ name: entry.name, version: entry.version, appVersion: entry.app_version, description: entry.description }));
}

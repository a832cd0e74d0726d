import { AppError, forbidden, isAppError } from '../../errors.js';
import { listReleases, type ReleaseItem } from '../../helm/releases.js';
import { listAttributes } from '../context/requester-reader.js';
import type { ReportContext } from '../context/report-context.js';
import { count, limitedTableOf, type SectionContent } from '../document/report-sections.js';

/** Healthy release states; any other (failed, pending-*, uninstalling, superseded as latest) is called out. */
const settled = new Set(['deployed']);

/** helm as the requester; a missing helm binary is a reason, not a crash. */
async function releasesOf(context: ReportContext): Promise<ReleaseItem[]> {
  try {
    return await listReleases(context.deps.helm.for(context.input.principal), context.input.namespace);
  } catch (error) {
    if (isAppError(error)) throw error;
    throw new AppError('K8S_ERROR', 'helm is not available on the Pilothouse host', {});
  }
}

/**
 * Helm releases and their status, read with helm as the requester's cluster identity. Helm keeps
 * releases in Secrets, so the policy decision is the one of listing Secrets: releases of namespaces
 * where it hides Secrets from the requester are left out.
 */
export async function helmSection(context: ReportContext): Promise<SectionContent> {
  const attributes = listAttributes({ group: '', version: 'v1', resource: 'secrets', namespaced: true }, context.input.namespace ?? '');
  const decision = await context.deps.policy.authorize(context.input.principal, attributes, 'direct');
  if (!decision.allowed) throw forbidden(decision.reason, { resource: 'secrets' });
  const hidden = decision.hiddenNamespaces ?? new Set<string>();
  const releases = (await releasesOf(context)).filter((release) => context.reader.visible(release.namespace) && !hidden.has(release.namespace));
  const rows = releases
    .sort((left, right) => left.namespace.localeCompare(right.namespace) || left.name.localeCompare(right.name))
    .map((release) => [release.namespace, release.name, release.chart, release.appVersion, release.revision, release.status, release.updated]);
  const unsettled = releases.filter((release) => !settled.has(release.status));
  return {
    summary: `${count(releases.length, 'Helm release')}, ${unsettled.length} not in state deployed.`,
    tables: limitedTableOf('Helm releases', ['Namespace', 'Release', 'Chart', 'App version', 'Revision', 'Status', 'Updated'], rows),
    findings: unsettled.map((release) => ({
      rule: 'overview.helm-release-not-deployed',
      severity: release.status === 'failed' ? 'high' : 'medium',
      title: `Helm release ${release.namespace}/${release.name} is ${release.status}`,
      object: { kind: 'HelmRelease', name: release.name, namespace: release.namespace },
      why: 'The last install, upgrade or rollback of the release did not finish: the cluster may not run what the chart describes.',
      fix: 'Look at the release history (helm history) and roll back or upgrade again.',
    })),
  };
}

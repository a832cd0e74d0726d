import { z } from 'zod';

/** Shapes of the helm API (releases, repositories, charts) as `GET /api/openapi.json` names them. */

/** One release as `GET /api/helm/releases` lists it. */
export const helmRelease = z
  .object({
    name: z.string(),
    namespace: z.string(),
    revision: z.number().int(),
    status: z.string(),
    chart: z.string(),
    appVersion: z.string(),
    updated: z.string(),
  })
  .meta({ id: 'HelmRelease' });

/** `helm status`: what a release read, install, upgrade and rollback answer. */
export const helmReleaseDetails = helmRelease
  .omit({ updated: true })
  .extend({ firstDeployed: z.string().nullable(), lastDeployed: z.string().nullable(), description: z.string(), notes: z.string() })
  .meta({ id: 'HelmReleaseDetails' });

/** One revision of `helm history`. */
export const helmHistoryEntry = z
  .object({ revision: z.number().int(), updated: z.string(), status: z.string(), chart: z.string(), appVersion: z.string(), description: z.string() })
  .meta({ id: 'HelmHistoryEntry' });

export const helmUninstalled = z.object({ name: z.string(), namespace: z.string(), uninstalled: z.literal(true) }).meta({ id: 'HelmUninstalled' });

/** `{values}`: a release's values (user-supplied, or computed with all=true). */
export const helmValues = z.object({ values: z.unknown() }).meta({ id: 'HelmValues' });

export const helmRepository = z.object({ name: z.string(), url: z.string() }).meta({ id: 'HelmRepository' });
export const helmRepositoryRemoved = z.object({ name: z.string(), removed: z.literal(true) }).meta({ id: 'HelmRepositoryRemoved' });
export const helmRepositoriesUpdated = z.object({ updated: z.array(z.string()) }).meta({ id: 'HelmRepositoriesUpdated' });

/** One result of `helm search repo`. */
export const chartHit = z.object({ name: z.string(), version: z.string(), appVersion: z.string(), description: z.string() }).meta({ id: 'ChartHit' });

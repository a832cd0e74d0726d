import { z } from 'zod';
import { AppError } from '../../errors.js';
import { searchCharts, updateRepositories } from '../../helm/repositories.js';
import { audited } from '../audit-context.js';
import { checkChartUrl, helmFor, helmWithRepositories, repositoryUrl, type HelmRouteDeps } from '../helm/helm-routing.js';
import { queryBoolean } from '../schemas/validate.js';
import { route, type RouteSpec } from '../types.js';
import { itemsOf } from '../schemas/api-schemas.js';
import { chartHit, helmRepositoriesUpdated, helmRepository, helmRepositoryRemoved } from '../schemas/helm-schemas.js';

const repositoryName = z
  .string()
  .max(63)
  .regex(/^[a-z0-9]([-a-z0-9_]*[a-z0-9])?$/, 'must be a repository name');
const searchKeyword = z
  .string()
  .max(200)
  .refine((keyword) => !keyword.startsWith('-'), 'must not start with "-"');
const repositoryBody = z.object({ name: repositoryName, url: repositoryUrl, force: z.boolean().default(false) }).meta({ id: 'HelmRepositoryBody' });
const updateBody = z.object({ names: z.array(repositoryName).default([]) }).meta({ id: 'HelmRepositoriesUpdateBody' });
const chartQuery = z.object({ keyword: searchKeyword.default(''), versions: queryBoolean.default(false) });

/** A repository name in use may be pointed elsewhere only with `force: true` (admins only reach this route). */
async function checkRepositoryName(deps: HelmRouteDeps, name: string, url: string, force: boolean): Promise<void> {
  const existing = (await deps.helmRepositories.list()).find((repository) => repository.name === name);
  if (!existing || force || existing.url.replace(/\/+$/, '') === url.replace(/\/+$/, '')) return;
  throw new AppError('VALIDATION_ERROR', `repository ${name} exists with another URL; send force: true to repoint it`, { reason: 'repository_exists', name });
}

/**
 * Helm chart repositories and chart search, through the real helm binary as the caller's identity.
 * The list is shared by replicas (src/helm/shared-repositories.ts).
 */
export function helmRepositoryRoutes(deps: HelmRouteDeps): RouteSpec[] {
  return [
    route({
      method: 'GET',
      path: '/api/helm/repositories',
      permission: 'view',
      summary: 'Chart repositories: {items: [{name, url}]}',
      response: itemsOf(helmRepository),
      handler: async (context) => {
        // Like every helm route: without a runnable helm binary the answer is the 503 that says so.
        helmFor(context);
        context.body = { items: await deps.helmRepositories.list() };
      },
    }),
    route({
      method: 'POST',
      path: '/api/helm/repositories',
      permission: 'admin',
      summary: 'helm repo add {name, url, force?} (an existing name is repointed only with force): {name, url}',
      body: repositoryBody,
      status: 201,
      response: helmRepository,
      handler: async (context, { body }) => {
        await checkChartUrl(deps, body.url, 'url');
        const helm = await helmWithRepositories(deps, context);
        await checkRepositoryName(deps, body.name, body.url, body.force);
        const line = `helm repo add ${body.name} ${body.url}${body.force ? ' --force-update' : ''}`;
        context.status = 201;
        context.body = await audited(deps, context, { resource: `helmrepository/${body.name}`, command: line }, () =>
          deps.helmRepositories.add(helm, body.name, body.url),
        );
      },
    }),
    route({
      method: 'POST',
      path: '/api/helm/repositories/update',
      permission: 'admin',
      summary: 'helm repo update {names?}: {updated: [name]} ([] when there are no repositories; 404 when a named one does not exist)',
      body: updateBody,
      errors: [404],
      response: helmRepositoriesUpdated,
      handler: async (context, { body }) => {
        const line = ['helm repo update', ...body.names].join(' ');
        const helm = await helmWithRepositories(deps, context);
        context.body = await audited(deps, context, { resource: 'helmrepository/*', command: line }, () => updateRepositories(helm, body.names));
      },
    }),
    route({
      method: 'DELETE',
      path: '/api/helm/repositories/:name',
      permission: 'admin',
      summary: 'helm repo remove: {name, removed: true}',
      params: z.object({ name: repositoryName }),
      response: helmRepositoryRemoved,
      handler: async (context, { params: { name } }) => {
        const helm = await helmWithRepositories(deps, context);
        context.body = await audited(deps, context, { resource: `helmrepository/${name}`, command: `helm repo remove ${name}` }, () =>
          deps.helmRepositories.remove(helm, name),
        );
      },
    }),
    route({
      method: 'GET',
      path: '/api/helm/charts',
      permission: 'view',
      summary: 'helm search repo ?keyword&versions: {items: [{name, version, appVersion, description}]}',
      query: chartQuery,
      errors: [404],
      response: itemsOf(chartHit),
      handler: async (context, { query }) => {
        context.body = { items: await searchCharts(await helmWithRepositories(deps, context), query.keyword, query.versions) };
      },
    }),
  ];
}

import { z } from 'zod';
import {
  listReleases,
  releaseDetails,
  releaseHistory,
  releaseManifest,
  releaseValues,
  rollbackRelease,
  uninstallRelease,
  type ReleaseDetails,
} from '../../helm/releases.js';
import { maskManifest } from '../../rbac/secret-masking.js';
import { secretVisibility } from '../../rbac/secret-visibility.js';
import { storedManifest, type ChartChange } from '../../helm/rendering.js';
import { prepareChange, upgradeSource } from '../../helm/release-changes.js';
import { audited } from '../audit-context.js';
import { valuesYamlSchema, withYamlValues } from '../helm/helm-values.js';
import { auditedRead } from '../audit-reads.js';
import { authorizeHelmAction } from '../helm/helm-policy.js';
import { checkChartUrl, helmFor, helmWithRepositories, repositoryUrl, type HelmRouteDeps } from '../helm/helm-routing.js';
import { visibleItems } from '../visible-items.js';
import { namespaceSchema, parseWith, queryBoolean } from '../schemas/validate.js';
import { route, type AppContext, type ErrorStatus, type RouteSpec } from '../types.js';
import { itemsOf, namespaceQuery } from '../schemas/api-schemas.js';
import { helmHistoryEntry, helmRelease, helmReleaseDetails, helmUninstalled, helmValues } from '../schemas/helm-schemas.js';

export type { HelmRouteDeps } from '../helm/helm-routing.js';

const releaseName = z
  .string()
  .max(53)
  .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a release name (lowercase letters, digits, "-")');
/** A chart name or `repo/chart`: never a path on the Pilothouse host. */
const chartName = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)?$/, 'must be a chart name or repo/chart');
/** Never starts with "-": a user value is never read by helm as a flag. */
const chartVersion = z
  .string()
  .max(64)
  .regex(/^[A-Za-z0-9.+~^<>=*][A-Za-z0-9.+~^<>=*, -]*$/, 'must be a version or version constraint');
const values = z.record(z.string(), z.unknown()).default({});

const installBody = z
  .object({
    name: releaseName,
    namespace: namespaceSchema,
    chart: chartName,
    repo: repositoryUrl.optional(),
    version: chartVersion.optional(),
    values,
    valuesYaml: valuesYamlSchema,
    createNamespace: z.boolean().default(false),
  })
  .meta({ id: 'HelmInstallBody' });
const upgradeBody = installBody.omit({ createNamespace: true }).meta({ id: 'HelmUpgradeBody' });
type InstallBody = z.infer<typeof installBody>;
const releaseQuery = z.object({ namespace: namespaceSchema });
const nameParams = z.object({ name: releaseName });
const rollbackBody = z.object({ namespace: namespaceSchema, revision: z.number().int().min(0).default(0) }).meta({ id: 'HelmRollbackBody' });
const valuesQuery = releaseQuery.extend({ all: queryBoolean.default(false) });
const releaseRead = { params: nameParams, query: releaseQuery, errors: [404] as ErrorStatus[] };

function releaseTarget(context: AppContext): { name: string; namespace: string } {
  const { name } = parseWith(nameParams, context.params, 'path');
  const { namespace } = parseWith(releaseQuery, context.query, 'query');
  return { name, namespace };
}

function chartLine(verb: string, body: z.infer<typeof upgradeBody>): string {
  const repo = body.repo ? ` --repo ${body.repo}` : '';
  const version = body.version ? ` --version ${body.version}` : '';
  return `helm ${verb} ${body.name} ${body.chart} -n ${body.namespace}${repo}${version} --values -`;
}

/**
 * An install or upgrade, authorized on exactly what it applies: the release Secrets are decided
 * before helm runs; then the chart is fetched and rendered once with cluster access, every object
 * of that rendering (CRDs and hooks included, and the namespace an install creates) is decided,
 * and the pinned chart installs that same text (ADR 0029). An upgrade that names no repository
 * reuses the one the release's chart came from.
 */
async function changeRelease(deps: HelmRouteDeps, context: AppContext, action: ChartChange['action'], sent: InstallBody): Promise<ReleaseDetails> {
  await authorizeHelmAction(deps, context, { action, namespace: sent.namespace });
  const helm = await helmWithRepositories(deps, context);
  const source = action === 'upgrade' ? await upgradeSource(helm, sent) : sent;
  await checkChartUrl(deps, source.repo, 'repo');
  const prepared = await prepareChange(helm, { action, source, createNamespace: sent.createNamespace });
  const created = sent.createNamespace ? `\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: ${sent.namespace}}\n` : '';
  const line = chartLine(action, source) + (sent.createNamespace ? ' --create-namespace' : '');
  try {
    await authorizeHelmAction(deps, context, { action, namespace: sent.namespace, manifest: prepared.objects + created });
    return await audited(deps, context, { resource: `helmrelease/${sent.name}`, command: line }, () => prepared.apply());
  } finally {
    await prepared.dispose();
  }
}

function releaseReadRoutes(deps: HelmRouteDeps): RouteSpec[] {
  const read = (suffix: string, summary: string, handler: (context: AppContext) => Promise<void>): RouteSpec =>
    route({
      method: 'GET',
      path: `/api/helm/releases/:name${suffix}`,
      permission: 'view',
      cluster: true,
      resourceKind: 'secrets',
      summary,
      ...releaseRead,
      produces: suffix === '/manifest' ? 'text/yaml' : undefined,
      response: suffix === '/history' ? itemsOf(helmHistoryEntry) : helmReleaseDetails,
      handler,
    });
  return [
    route({
      method: 'GET',
      path: '/api/helm/releases',
      permission: 'view',
      cluster: true,
      // A release is a Secret in its namespace: listing releases is listing those Secrets.
      resourceKind: 'secrets',
      summary: 'Releases (all namespaces when absent): {items: [{name, namespace, revision, status, chart, appVersion, updated}]}',
      query: namespaceQuery,
      response: itemsOf(helmRelease),
      handler: async (context, { query: { namespace } }) => {
        context.body = { items: visibleItems(context, await listReleases(helmFor(context), namespace)) };
      },
    }),
    read('', 'Release details (helm status)', async (context) => {
      const target = releaseTarget(context);
      context.body = await releaseDetails(helmFor(context), target.name, target.namespace);
    }),
    read('/history', 'Release history: {items: [{revision, updated, status, chart, appVersion, description}]}', async (context) => {
      const target = releaseTarget(context);
      context.body = { items: await releaseHistory(helmFor(context), target.name, target.namespace) };
    }),
    read('/manifest', 'Rendered manifest (text/yaml)', async (context) => {
      const target = releaseTarget(context);
      const read = { resource: `helmrelease/${target.name}`, command: `helm get manifest ${target.name} -n ${target.namespace}`, sensitive: true };
      const manifest = await auditedRead(deps, context, read, () => releaseManifest(helmFor(context), target.name, target.namespace));
      context.type = 'text/yaml';
      // The rendered manifest carries every Secret of the chart: masked by the one rule (src/rbac/secret-visibility.ts).
      context.body = maskManifest(manifest, secretVisibility(context.state.principal));
    }),
    route({
      method: 'GET',
      path: '/api/helm/releases/:name/values',
      permission: 'execute_read',
      cluster: true,
      summary: 'Release values (user-supplied; all=true for computed): {values}',
      params: nameParams,
      query: valuesQuery,
      response: helmValues,
      errors: [404],
      handler: async (context) => {
        const target = releaseTarget(context);
        await authorizeHelmAction(deps, context, { action: 'read', namespace: target.namespace });
        const { all } = parseWith(z.object({ all: queryBoolean.default(false) }), { all: context.query.all }, 'query');
        const read = {
          resource: `helmrelease/${target.name}`,
          command: `helm get values ${target.name} -n ${target.namespace}${all ? ' --all' : ''}`,
          sensitive: true,
        };
        context.body = { values: await auditedRead(deps, context, read, () => releaseValues(helmFor(context), target.name, target.namespace, all)) };
      },
    }),
  ];
}

function releaseWriteRoutes(deps: HelmRouteDeps): RouteSpec[] {
  return [
    route({
      method: 'POST',
      path: '/api/helm/install',
      permission: 'execute_write',
      cluster: true,
      resourceKind: 'secrets',
      summary: 'helm install: release details',
      body: installBody,
      status: 201,
      response: helmReleaseDetails,
      handler: async (context) => {
        const body = withYamlValues(parseWith(installBody, context.request.body));
        // The caller's repository URL is checked before anything runs; an upgrade's recorded one when it is read.
        await checkChartUrl(deps, body.repo, 'repo');
        context.status = 201;
        context.body = await changeRelease(deps, context, 'install', body);
      },
    }),
    route({
      method: 'POST',
      path: '/api/helm/upgrade',
      permission: 'execute_write',
      cluster: true,
      resourceKind: 'secrets',
      summary: 'helm upgrade (values replace the previous ones): release details',
      body: upgradeBody,
      response: helmReleaseDetails,
      handler: async (context) => {
        const body = withYamlValues(parseWith(upgradeBody, context.request.body));
        await checkChartUrl(deps, body.repo, 'repo');
        context.body = await changeRelease(deps, context, 'upgrade', { ...body, createNamespace: false });
      },
    }),
    route({
      method: 'POST',
      path: '/api/helm/releases/:name/rollback',
      permission: 'execute_write',
      cluster: true,
      resourceKind: 'secrets',
      summary: 'helm rollback {namespace, revision (0/absent = previous)}: release details',
      params: nameParams,
      body: rollbackBody,
      response: helmReleaseDetails,
      handler: async (context, { params: { name }, body }) => {
        const manifest = await storedManifest(helmFor(context), name, body.namespace, body.revision);
        await authorizeHelmAction(deps, context, { action: 'rollback', namespace: body.namespace, manifest });
        const line = `helm rollback ${name}${body.revision ? ` ${body.revision}` : ''} -n ${body.namespace}`;
        context.body = await audited(deps, context, { resource: `helmrelease/${name}`, command: line }, () =>
          rollbackRelease(helmFor(context), name, body.namespace, body.revision),
        );
      },
    }),
    route({
      method: 'DELETE',
      path: '/api/helm/releases/:name',
      permission: 'delete',
      cluster: true,
      resourceKind: 'secrets',
      summary: 'helm uninstall: {name, namespace, uninstalled: true}',
      ...releaseRead,
      response: helmUninstalled,
      handler: async (context) => {
        const target = releaseTarget(context);
        const manifest = await storedManifest(helmFor(context), target.name, target.namespace);
        await authorizeHelmAction(deps, context, { action: 'uninstall', namespace: target.namespace, manifest });
        const line = `helm uninstall ${target.name} -n ${target.namespace}`;
        context.body = await audited(deps, context, { resource: `helmrelease/${target.name}`, command: line }, () =>
          uninstallRelease(helmFor(context), target.name, target.namespace),
        );
      },
    }),
  ];
}

export function helmRoutes(deps: HelmRouteDeps): RouteSpec[] {
  return [...releaseReadRoutes(deps), ...releaseWriteRoutes(deps)];
}

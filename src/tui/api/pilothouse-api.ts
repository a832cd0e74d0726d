import type { ApiClient } from './client.js';
import type { AccessRequest, ClusterList, Health, HelmRelease, Investigation, Me, PortForward, ResourceKind, Row, Target } from './types.js';
import type { PathOf, ResponseBody } from '@pilothouse/wire/calls';
import type { components, Finding } from '@pilothouse/wire/types';

/** The request bodies the terminal UI sends, as the OpenAPI document names them. */
type Body = components['schemas'];

/** The workload and node action routes (`POST /api/{kind}/{verb}`: scale, restart, rollback, pause, resume, trigger, suspend, cordon, uncordon). */
export type ActionPath = Extract<PathOf<'POST'>, `/api/${'deployment' | 'statefulset' | 'daemonset' | 'cronjob' | 'node'}/${string}`>;

/** The endpoints the terminal UI calls, typed by the contract; every call goes through the one ApiClient. */
export class PilothouseApi {
  constructor(readonly client: ApiClient) {}

  health(): Promise<Health> {
    return this.client.call('GET', '/api/health');
  }

  me(): Promise<Me> {
    return this.client.call('GET', '/api/auth/me');
  }

  /** GET /api/clusters: every cluster the service serves, with its reachability and the caller's access there. */
  clusters(): Promise<ClusterList> {
    return this.client.call('GET', '/api/clusters');
  }

  async kinds(): Promise<ResourceKind[]> {
    return (await this.client.call('GET', '/api/k8s')).items;
  }

  async list(resource: string, query: { namespace?: string; labelSelector?: string }): Promise<Row[]> {
    return (await this.client.call('GET', '/api/k8s/{resource}', { path: { resource }, query })).items;
  }

  describe(target: Target): Promise<string> {
    return this.client.text(`${objectPath(target)}/describe`, { namespace: target.namespace });
  }

  yaml(target: Target): Promise<string> {
    return this.client.text(`${objectPath(target)}/yaml`, { namespace: target.namespace });
  }

  /**
   * POST /api/k8s/{resource}/apply: server-side apply of an edited object (the web editor's write
   * path); `dryRun` validates and admits on the API server only, `force` takes over fields other
   * field managers own (a 409 CONFLICT with `details.conflicts` otherwise).
   */
  apply(resource: string, object: Body['Manifest'], options: { dryRun: boolean; force: boolean }): Promise<{ created: boolean; dryRun: boolean }> {
    const query = { dryRun: options.dryRun, force: options.force };
    return this.client.call('POST', '/api/k8s/{resource}/apply', { path: { resource }, query, body: object });
  }

  async remove(target: Target): Promise<void> {
    await this.client.call('DELETE', '/api/k8s/{resource}/{name}', {
      path: { resource: target.resource, name: target.name },
      query: { namespace: target.namespace },
    });
  }

  /** POST /api/{kind}/{verb} of a workload or node action (scale, restart, rollback, pause, resume, cordon, uncordon). */
  action(path: ActionPath, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    // Each route takes its own body (the caller builds it from the row); the answer is a change report for all of them.
    return this.client.call('POST', path as '/api/deployment/restart', { body: body as Body['WorkloadTargetBody'] });
  }

  /** GET /api/problems: the findings of the current cluster the caller may see, critical first. */
  async problems(): Promise<Finding[]> {
    return (await this.client.call('GET', '/api/problems')).items;
  }

  /** POST /api/investigations: asks the pilot to investigate (read-only); the new Investigation's name. */
  async investigate(body: Body['InvestigationCreateBody']): Promise<string> {
    return (await this.client.call('POST', '/api/investigations', { body })).metadata.name;
  }

  async startDrain(node: string): Promise<string> {
    const body: Body['NodeDrainBody'] = { name: node, ignoreDaemonSets: true, deleteLocalData: true };
    const started = await this.client.call('POST', '/api/node/drain', { body });
    return started.id;
  }

  async helmReleases(namespace?: string): Promise<HelmRelease[]> {
    return (await this.client.call('GET', '/api/helm/releases', { query: { namespace } })).items;
  }

  async helmHistory(release: Target): Promise<ResponseBody<'GET', '/api/helm/releases/{name}/history'>['items']> {
    const answer = await this.client.call('GET', '/api/helm/releases/{name}/history', {
      path: { name: release.name },
      query: { namespace: release.namespace ?? '' },
    });
    return answer.items;
  }

  async helmRollback(release: Target, revision?: number): Promise<void> {
    const body: Body['HelmRollbackBody'] = { namespace: release.namespace ?? '', revision };
    await this.client.call('POST', '/api/helm/releases/{name}/rollback', { path: { name: release.name }, body });
  }

  async helmUninstall(release: Target): Promise<void> {
    await this.client.call('DELETE', '/api/helm/releases/{name}', { path: { name: release.name }, query: { namespace: release.namespace ?? '' } });
  }

  async accessRequests(): Promise<AccessRequest[]> {
    return (await this.client.call('GET', '/api/access-requests')).items;
  }

  /** An admin's decision on a Pending request (`approve` or `deny`), with an optional comment for the requester. */
  decideAccessRequest(id: string, verb: 'approve' | 'deny', comment?: string): Promise<AccessRequest> {
    const body: Body['AccessDecisionBody'] = comment ? { comment } : {};
    return this.client.call('POST', `/api/access-requests/{id}/${verb}`, { path: { id }, body });
  }

  requestAccess(body: Body['AccessRequestCreateBody']): Promise<AccessRequest> {
    return this.client.call('POST', '/api/access-requests', { body });
  }

  portForward(body: Body['PortForwardCreateBody']): Promise<{ id: string; localPort: number; address?: string }> {
    return this.client.call('POST', '/api/portforward', { body });
  }

  /** GET /api/portforward: the caller's forwards (every user's for admins), all namespaces. */
  async portForwards(): Promise<PortForward[]> {
    return (await this.client.call('GET', '/api/portforward')).items;
  }

  /** DELETE /api/portforward/{id}: stops a forward. */
  async stopPortForward(id: string): Promise<void> {
    await this.client.call('DELETE', '/api/portforward/{id}', { path: { id } });
  }

  /** GET /api/investigations: the Investigations the caller may see. */
  async investigations(): Promise<Investigation[]> {
    return (await this.client.call('GET', '/api/investigations')).items;
  }

  /** GET /api/investigations/{name}. */
  investigation(name: string): Promise<Investigation> {
    return this.client.call('GET', '/api/investigations/{name}', { path: { name } });
  }

  async terminalTicket(pod: Target, container?: string): Promise<components['schemas']['TerminalTicket']> {
    const body: Body['TerminalTicketBody'] = { namespace: pod.namespace, container };
    return this.client.call('POST', '/api/pods/{name}/terminal/ticket', { path: { name: pod.name }, body });
  }
}

function objectPath(target: Target): string {
  return `/api/k8s/${encodeURIComponent(target.resource)}/${encodeURIComponent(target.name)}`;
}

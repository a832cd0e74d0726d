import type { ApiClient } from './client.js';
import type { AccessRequest, ClusterList, Health, HelmRelease, Investigation, Me, PortForward, ResourceKind, Row, Target } from './types.js';
import type { components } from '@pilothouse/wire/types';

/** The request bodies the terminal UI sends, as the OpenAPI document names them. */
type Body = components['schemas'];

/** The endpoints the terminal UI calls, typed; every call goes through the one ApiClient. */
export class PilothouseApi {
  constructor(readonly client: ApiClient) {}

  health(): Promise<Health> {
    return this.client.json<Health>('GET', '/api/health');
  }

  me(): Promise<Me> {
    return this.client.json<Me>('GET', '/api/auth/me');
  }

  /** GET /api/clusters: every cluster the service serves, with its reachability and the caller's access there. */
  clusters(): Promise<ClusterList> {
    return this.client.json<ClusterList>('GET', '/api/clusters');
  }

  async kinds(): Promise<ResourceKind[]> {
    return (await this.client.json<{ items: ResourceKind[] }>('GET', '/api/k8s')).items;
  }

  async list(resource: string, query: { namespace?: string; labelSelector?: string }): Promise<Row[]> {
    return (await this.client.json<{ items: Row[] }>('GET', `/api/k8s/${encodeURIComponent(resource)}`, { query })).items;
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
  apply(resource: string, object: Record<string, unknown>, options: { dryRun: boolean; force: boolean }): Promise<{ created: boolean; dryRun: boolean }> {
    const query = { dryRun: options.dryRun, force: options.force };
    return this.client.json('POST', `/api/k8s/${encodeURIComponent(resource)}/apply`, { query, body: object });
  }

  async remove(target: Target): Promise<void> {
    await this.client.json('DELETE', objectPath(target), { query: { namespace: target.namespace } });
  }

  /** POST /api/{kind}/{verb} of a workload or node action (scale, restart, rollback, pause, resume, cordon, uncordon). */
  action(path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.client.json('POST', path, { body });
  }

  /** POST /api/investigations: asks the pilot to investigate (read-only); the new Investigation's name. */
  async investigate(body: Body['InvestigationCreateBody']): Promise<string> {
    return (await this.client.json<{ metadata: { name: string } }>('POST', '/api/investigations', { body })).metadata.name;
  }

  async startDrain(node: string): Promise<string> {
    const body: Body['NodeDrainBody'] = { name: node, ignoreDaemonSets: true, deleteLocalData: true };
    const started = await this.client.json<{ id: string }>('POST', '/api/node/drain', { body });
    return started.id;
  }

  async helmReleases(namespace?: string): Promise<HelmRelease[]> {
    return (await this.client.json<{ items: HelmRelease[] }>('GET', '/api/helm/releases', { query: { namespace } })).items;
  }

  async helmHistory(release: Target): Promise<Row[]> {
    const path = `/api/helm/releases/${encodeURIComponent(release.name)}/history`;
    return (await this.client.json<{ items: Row[] }>('GET', path, { query: { namespace: release.namespace } })).items;
  }

  async helmRollback(release: Target, revision?: number): Promise<void> {
    const body: Body['HelmRollbackBody'] = { namespace: release.namespace ?? '', revision };
    await this.client.json('POST', `/api/helm/releases/${encodeURIComponent(release.name)}/rollback`, { body });
  }

  async helmUninstall(release: Target): Promise<void> {
    await this.client.json('DELETE', `/api/helm/releases/${encodeURIComponent(release.name)}`, { query: { namespace: release.namespace } });
  }

  async accessRequests(): Promise<AccessRequest[]> {
    return (await this.client.json<{ items: AccessRequest[] }>('GET', '/api/access-requests')).items;
  }

  /** An admin's decision on a Pending request (`approve` or `deny`), with an optional comment for the requester. */
  decideAccessRequest(id: string, verb: 'approve' | 'deny', comment?: string): Promise<AccessRequest> {
    const body: Body['AccessDecisionBody'] = comment ? { comment } : {};
    return this.client.json('POST', `/api/access-requests/${encodeURIComponent(id)}/${verb}`, { body });
  }

  requestAccess(body: Body['AccessRequestCreateBody']): Promise<AccessRequest> {
    return this.client.json<AccessRequest>('POST', '/api/access-requests', { body });
  }

  portForward(body: Body['PortForwardCreateBody']): Promise<{ id: string; localPort: number; address?: string }> {
    return this.client.json('POST', '/api/portforward', { body });
  }

  /** GET /api/portforward: the caller's forwards (every user's for admins), all namespaces. */
  async portForwards(): Promise<PortForward[]> {
    return (await this.client.json<{ items: PortForward[] }>('GET', '/api/portforward')).items;
  }

  /** DELETE /api/portforward/{id}: stops a forward. */
  async stopPortForward(id: string): Promise<void> {
    await this.client.json('DELETE', `/api/portforward/${encodeURIComponent(id)}`);
  }

  /** GET /api/investigations: the Investigations the caller may see. */
  async investigations(): Promise<Investigation[]> {
    return (await this.client.json<{ items: Investigation[] }>('GET', '/api/investigations')).items;
  }

  /** GET /api/investigations/{name}. */
  investigation(name: string): Promise<Investigation> {
    return this.client.json<Investigation>('GET', `/api/investigations/${encodeURIComponent(name)}`);
  }

  async terminalTicket(pod: Target, container?: string): Promise<components['schemas']['TerminalTicket']> {
    const body: Body['TerminalTicketBody'] = { namespace: pod.namespace, container };
    return this.client.json('POST', `/api/pods/${encodeURIComponent(pod.name)}/terminal/ticket`, { body });
  }
}

function objectPath(target: Target): string {
  return `/api/k8s/${encodeURIComponent(target.resource)}/${encodeURIComponent(target.name)}`;
}

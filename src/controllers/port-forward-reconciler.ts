import type { Logger } from 'pino';
import { AppError } from '../errors.js';
import type { PortForward } from '../crds/port-forward.js';
import type { KubeClients } from '../kube/clients.js';
import { getPod } from '../kube/pods/pod-target.js';
import { PortForwardTunnel } from '../kube/pods/port-forward-tunnel.js';
import type { CustomClient } from '../kube/custom-client.js';
import { setCondition } from './conditions.js';
import { noEvents, type EventRecorder } from './events.js';
import type { Reconciler, Result } from './reconciler.js';

/** Annotation recording the cluster identity (impersonated user) the forward runs as, set at creation. */
export const identityAnnotation = 'pilothouse.dev/cluster-identity';
/** The annotation's value when impersonation is off: the requester's calls run as the service too. */
export const serviceIdentity = 'pilothouse:service';

/**
 * The identities a forward may run as: with impersonation, the mapped identities (and the
 * fail-closed `system:anonymous`); without it, only the service's own (`pilothouse:service`).
 */
export function allowedForwardIdentities(impersonation: { enabled: boolean; mappings: Partial<Record<string, string>> }): Set<string> {
  if (!impersonation.enabled) return new Set([serviceIdentity]);
  return new Set([...Object.values(impersonation.mappings).filter((value): value is string => Boolean(value)), 'system:anonymous']);
}

/** One cluster a forward may open to: its clients and the identities Pilothouse runs forwards as there. */
export interface ForwardTarget {
  kube: KubeClients;
  /** {@link allowedForwardIdentities} of that cluster's impersonation mapping. */
  identities: ReadonlySet<string>;
}

/**
 * The cluster a forward's `spec.cluster` names (absent: the home cluster), or undefined when no cluster
 * has that name (removed, or never registered): the forward then fails, never opens elsewhere.
 */
export type ForwardTargets = (cluster: string | undefined) => ForwardTarget | undefined;

/** How often an active forward re-checks that its pod still exists. */
const podCheckMs = 5_000;

interface OpenTunnel {
  tunnel: PortForwardTunnel;
  specKey: string;
  port: number;
}

type Status = NonNullable<PortForward['status']>;

/**
 * Level-based PortForward reconciler: for each object it makes the host's listener match the
 * spec (open while the object and its pod exist, closed otherwise) and writes status
 * `active` (localPort, address) or `failed` (message). Listeners live in this process, so only
 * the leader replica serves forwards.
 */
export class PortForwardReconciler implements Reconciler {
  readonly name = 'portforward';
  private readonly tunnels = new Map<string, OpenTunnel>();

  constructor(
    private readonly client: CustomClient<PortForward>,
    private readonly targets: ForwardTargets,
    private readonly options: { bindAddress: string; logger: Logger; events?: EventRecorder },
  ) {}

  async reconcile(key: string): Promise<Result> {
    const object = await this.client.get(key);
    if (!object || object.metadata.deletionTimestamp) {
      await this.closeTunnel(key);
      return {};
    }
    if (this.tunnels.get(key)?.specKey !== JSON.stringify(object.spec)) await this.closeTunnel(key);
    if (!this.tunnels.has(key) && this.failedForGood(object)) return {};
    return this.converge(key, object);
  }

  /** A failed forward stays failed until its spec changes (a new generation). */
  private failedForGood(object: PortForward): boolean {
    return object.status?.phase === 'failed' && object.status.observedGeneration === object.metadata.generation;
  }

  /**
   * The client the forward runs with: its cluster's, as the identity recorded at creation (never the service's
   * instead); a refusal message when the cluster is unknown or the identity is not one Pilothouse runs forwards as there.
   */
  private clientFor(object: PortForward): ReturnType<KubeClients['forIdentity']> | string {
    const cluster = object.spec.cluster;
    const target = this.targets(cluster);
    if (!target) return `refused: cluster ${cluster ?? '(home)'} not found (not one of GET /api/clusters; removed, or never registered)`;
    const identity = object.metadata.annotations?.[identityAnnotation];
    if (!identity) return `refused: no requesting identity (annotation ${identityAnnotation} is set by Pilothouse when it creates a forward)`;
    if (!target.identities.has(identity)) return `refused: identity ${identity} is not one Pilothouse runs forwards as`;
    return target.kube.forIdentity(identity === serviceIdentity ? undefined : identity);
  }

  private async converge(key: string, object: PortForward): Promise<Result> {
    const client = this.clientFor(object);
    if (typeof client === 'string') {
      await this.closeTunnel(key);
      await this.writeStatus(object, { phase: 'failed', message: client });
      return {};
    }
    const podProblem = await this.checkPod(client, object);
    if (podProblem) {
      await this.closeTunnel(key);
      await this.writeStatus(object, { phase: 'failed', message: podProblem });
      return {};
    }
    const open = this.tunnels.get(key) ?? (await this.openTunnel(key, object, client));
    if (!open) return {};
    await this.writeStatus(object, { phase: 'active', localPort: open.port, address: `${this.options.bindAddress}:${open.port}`, message: '' });
    return { requeueAfter: podCheckMs };
  }

  /** Closes every listener when its controller stops (this replica stops leading or shuts down). */
  stop(): void {
    void this.closeAll();
  }

  /** Closes every listener. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.tunnels.keys()].map((key) => this.closeTunnel(key)));
  }

  private async checkPod(client: ReturnType<KubeClients['forIdentity']>, object: PortForward): Promise<string | undefined> {
    try {
      const pod = await getPod(client, object.spec.namespace, object.spec.pod);
      if (pod.metadata.deletionTimestamp) return `pod ${object.spec.namespace}/${object.spec.pod} is being deleted`;
      return undefined;
    } catch (error) {
      if (error instanceof AppError && (error.code === 'NOT_FOUND' || error.code === 'FORBIDDEN'))
        return `pod ${object.spec.namespace}/${object.spec.pod}: ${error.message}`;
      throw error;
    }
  }

  private async openTunnel(key: string, object: PortForward, client: ReturnType<KubeClients['forIdentity']>): Promise<OpenTunnel | undefined> {
    const tunnel = new PortForwardTunnel(client, object.spec, this.options.logger);
    try {
      const port = await tunnel.listen(this.options.bindAddress, object.spec.localPort);
      const open = { tunnel, specKey: JSON.stringify(object.spec), port };
      this.tunnels.set(key, open);
      this.options.logger.info({ portforward: key, port, pod: object.spec.pod }, 'port-forward listening');
      return open;
    } catch (error) {
      await tunnel.close();
      const code = (error as NodeJS.ErrnoException).code;
      const message = code === 'EADDRINUSE' ? `local port ${object.spec.localPort} is in use` : `cannot listen: ${(error as Error).message}`;
      await this.writeStatus(object, { phase: 'failed', message });
      return undefined;
    }
  }

  private async closeTunnel(key: string): Promise<void> {
    const open = this.tunnels.get(key);
    if (!open) return;
    this.tunnels.delete(key);
    await open.tunnel.close();
    this.options.logger.info({ portforward: key }, 'port-forward closed');
  }

  /** Writes the status and its `Ready` condition when either changed; a transition also records an Event. */
  private async writeStatus(object: PortForward, status: Status): Promise<void> {
    const current = object.status ?? {};
    const ready = status.phase === 'active';
    const condition = ready
      ? {
          type: 'Ready',
          status: 'True' as const,
          reason: 'Forwarding',
          message: `forwarding ${status.address ?? ''} to ${object.spec.pod}:${object.spec.podPort}`,
        }
      : { type: 'Ready', status: 'False' as const, reason: 'Failed', message: status.message || 'the forward is not open' };
    const update = setCondition(current.conditions, condition, object.metadata.generation, new Date().toISOString());
    const wanted = { ...status, observedGeneration: object.metadata.generation };
    const changed = update.changed || Object.entries(wanted).some(([field, value]) => current[field as keyof Status] !== value);
    if (!changed) return;
    await this.client.patchStatus(object.metadata.name, { ...wanted, conditions: update.conditions });
    if (!update.transition) return;
    const events = this.options.events ?? noEvents;
    await events.record(
      { kind: 'PortForward', metadata: object.metadata },
      { type: ready ? 'Normal' : 'Warning', reason: condition.reason, action: 'Reconcile', note: condition.message },
    );
  }
}

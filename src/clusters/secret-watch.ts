import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { clusterNameSchema } from '../config/schema.js';
import { AppError } from '../errors.js';
import { parseClusterKubeconfig, type ClusterKubeconfig } from './kubeconfig.js';
import type { RestClient } from '../kube/rest-client.js';
import { jsonLines } from '../kube/watch-stream.js';

/** The label that makes a Secret in Pilothouse's namespace a cluster registration (ADR 0035). */
export const clusterSecretLabel = 'pilothouse.dev/cluster';
/** The annotation naming the cluster (default: the Secret's name). */
export const clusterNameAnnotation = 'pilothouse.dev/cluster-name';

/** A cluster a Secret registers: its checked kubeconfig (inline data only) and the Secret it came from. */
export interface ClusterSecretSource extends ClusterKubeconfig {
  secret: string;
}

/** Where the watcher reports the clusters of the labelled Secrets (the composition root's cluster set). */
export interface ClusterSecretTarget {
  /** True for the names the Secrets may not take: the home cluster's and those of `clusters:` (not the ones put here). */
  reserved(name: string): boolean;
  /** A cluster was added, or its Secret's data changed: build (or rebuild) it. */
  put(name: string, source: ClusterSecretSource): Promise<void>;
  /** Its Secret is gone (or no longer valid, or names another cluster now). */
  remove(name: string): Promise<void>;
}

/** A labelled Secret that registers no cluster, and why (GET /api/clusters shows it on the cluster it names, to admins). */
export interface ClusterSecretRefusal {
  secret: string;
  /** The cluster name the Secret asked for. */
  cluster: string;
  reason: string;
}

interface SecretObject {
  metadata: { name: string; resourceVersion?: string; creationTimestamp?: string; annotations?: Record<string, string> };
  data?: Record<string, string>;
}

interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: SecretObject & { code?: number };
}

/** A valid registration: the cluster it names and a digest of what it holds (a change of data is a replace). */
interface Registration {
  cluster: string;
  version?: string;
  /** When the Secret was created (RFC 3339): of two Secrets naming one cluster, the older holds it when neither does yet. */
  created?: string;
  digest: string;
  source: ClusterSecretSource;
}

class WatchEnded extends Error {}

/** The cluster name a Secret asks for: its annotation, or the Secret's name. */
function requestedCluster(secret: SecretObject): string {
  return secret.metadata.annotations?.[clusterNameAnnotation] ?? secret.metadata.name;
}

function decode(value: string | undefined): string | undefined {
  return value === undefined ? undefined : Buffer.from(value, 'base64').toString('utf8');
}

/**
 * Watches the Secrets labelled `pilothouse.dev/cluster: "true"` in Pilothouse's namespace of the home cluster
 * with the service's own client and reports each cluster added, replaced (data changed) and removed. Level-based:
 * every list (at start, and after each watch ends, fails or expires with 410) is compared with what was reported,
 * so a Secret deleted while the watch was down is removed all the same. A Secret that cannot register a cluster
 * (bad name, no kubeconfig, a kubeconfig with plugins or file references, a reserved name) is skipped with a
 * warning naming the Secret and the reason, once per version of it, never its content. Of two Secrets naming one
 * cluster, the one that holds it keeps it (a later Secret never takes a cluster over live; security review four,
 * finding 8); when neither holds it yet, the older one, then the first by name. Refusals are kept for
 * GET /api/clusters ({@link refusals}).
 */
export class ClusterSecretWatch {
  /** Valid registrations by Secret name. */
  private readonly registrations = new Map<string, Registration>();
  /** What the target was told, by cluster name. */
  private readonly reported = new Map<string, { digest: string; secret: string }>();
  /** The refusal last logged for each Secret (`resourceVersion reason`): each is logged once per version. */
  private readonly warned = new Map<string, string>();
  /** Every labelled Secret that registers no cluster now, by Secret name. */
  private readonly refused = new Map<string, ClusterSecretRefusal>();
  /** The Secrets that cannot register any cluster (bad name, no kubeconfig, reserved name...), by Secret name. */
  private readonly invalid = new Map<string, ClusterSecretRefusal>();
  private abort = new AbortController();
  private running?: Promise<void>;
  private markSynced: () => void = () => undefined;
  /** Resolves once the first list has been reported to the target. */
  readonly synced: Promise<void>;

  constructor(
    private readonly rest: RestClient,
    readonly namespace: string,
    private readonly target: ClusterSecretTarget,
    private readonly logger: Logger,
  ) {
    this.synced = new Promise((resolve) => (this.markSynced = resolve));
  }

  /** The labelled Secrets that register no cluster now, and why (by Secret name). */
  refusals(): readonly ClusterSecretRefusal[] {
    return [...this.refused.values()].sort((a, b) => a.secret.localeCompare(b.secret));
  }

  start(): void {
    if (this.running) return;
    this.abort = new AbortController();
    this.running = this.run(this.abort.signal);
  }

  /** Stops watching; the clusters reported stay (the service closes its cluster set itself). */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
    this.running = undefined;
  }

  private path(): string {
    return `/api/v1/namespaces/${encodeURIComponent(this.namespace)}/secrets`;
  }

  private async run(signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      try {
        await this.watch(await this.relist(signal), signal);
        failures = 0;
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof WatchEnded) continue;
        failures += 1;
        this.logger.warn({ namespace: this.namespace, err: String(error), failures }, 'cluster Secret watch failed, relisting');
        await delay(Math.min(30_000, 500 * 2 ** failures), undefined, { signal }).catch(() => undefined);
      }
    }
  }

  /** Lists the labelled Secrets, takes them as the whole truth and reports the difference; returns the list's version. */
  private async relist(signal: AbortSignal): Promise<string> {
    const list = await this.rest.json<{ items: SecretObject[]; metadata: { resourceVersion: string } }>('GET', this.path(), {
      query: { labelSelector: `${clusterSecretLabel}=true` },
      signal,
      target: 'secrets',
    });
    this.registrations.clear();
    this.invalid.clear();
    const names = new Set(list.items.map((secret) => secret.metadata.name));
    for (const name of this.warned.keys()) if (!names.has(name)) this.warned.delete(name);
    for (const secret of list.items) this.accept(secret);
    await this.reconcile();
    this.markSynced();
    return list.metadata.resourceVersion;
  }

  /** Applies watch events until the watch ends; every end (timeout, 410, error) is followed by a relist. */
  private async watch(resourceVersion: string, signal: AbortSignal): Promise<void> {
    const response = await this.rest.raw('GET', this.path(), {
      query: {
        watch: 1,
        resourceVersion,
        labelSelector: `${clusterSecretLabel}=true`,
        allowWatchBookmarks: true,
        timeoutSeconds: 300 + Math.floor(Math.random() * 300),
      },
      signal,
      target: 'secrets',
    });
    for await (const event of jsonLines<WatchEvent>(response)) {
      if (event.type === 'ERROR') throw event.object.code === 410 ? new WatchEnded('expired') : new Error(`watch error ${event.object.code ?? ''}`);
      if (event.type === 'BOOKMARK') continue;
      if (event.type === 'DELETED') this.forget(event.object.metadata.name);
      else this.accept(event.object);
      await this.reconcile();
    }
    throw new WatchEnded('watch closed');
  }

  /** Takes one Secret: a valid registration replaces the Secret's old one; an invalid one drops it (logged once). */
  private accept(secret: SecretObject): void {
    const name = secret.metadata.name;
    this.registrations.delete(name);
    this.invalid.delete(name);
    try {
      this.registrations.set(name, this.registration(secret));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      this.warnOnce(secret.metadata, error.message);
      this.invalid.set(name, { secret: name, cluster: requestedCluster(secret), reason: error.message });
    }
  }

  private forget(name: string): void {
    this.registrations.delete(name);
    this.invalid.delete(name);
    this.warned.delete(name);
  }

  private registration(secret: SecretObject): Registration {
    const cluster = requestedCluster(secret);
    if (!clusterNameSchema.safeParse(cluster).success) throw new AppError('VALIDATION_ERROR', `cluster name "${cluster}" is not a DNS-1123 label`);
    if (this.target.reserved(cluster))
      throw new AppError('VALIDATION_ERROR', `cluster "${cluster}" is a cluster of the configuration (the configuration wins)`);
    const text = decode(secret.data?.kubeconfig);
    if (!text) throw new AppError('VALIDATION_ERROR', 'the Secret has no "kubeconfig" key');
    const context = decode(secret.data?.context) || undefined;
    const checked = parseClusterKubeconfig(text, { context, inlineOnly: true });
    const digest = createHash('sha256').update(text).update('\u0000').update(checked.context).digest('hex');
    const { resourceVersion: version, creationTimestamp: created } = secret.metadata;
    return { cluster, version, created, digest, source: { ...checked, secret: secret.metadata.name } };
  }

  private warnOnce(secret: { name: string; resourceVersion?: string }, reason: string): void {
    const key = `${secret.resourceVersion ?? ''} ${reason}`;
    if (this.warned.get(secret.name) === key) return;
    this.warned.set(secret.name, key);
    this.logger.warn({ namespace: this.namespace, secret: secret.name, reason }, 'cluster Secret refused');
  }

  /**
   * The cluster each name should be: the Secret that holds it now keeps it; otherwise the oldest Secret naming it
   * (then the first by name). The others are refused, logged once per version and kept for {@link refusals}.
   */
  private desired(): Map<string, Registration> {
    const desired = new Map<string, Registration>();
    this.refused.clear();
    for (const [name, refusal] of this.invalid) this.refused.set(name, refusal);
    for (const registration of [...this.registrations.values()].sort((a, b) => this.precedence(a, b))) {
      const holder = desired.get(registration.cluster);
      if (!holder) {
        desired.set(registration.cluster, registration);
        continue;
      }
      const secret = registration.source.secret;
      const reason = `cluster "${registration.cluster}" is registered by Secret "${holder.source.secret}"`;
      this.warnOnce({ name: secret, resourceVersion: registration.version }, reason);
      this.refused.set(secret, { secret, cluster: registration.cluster, reason });
    }
    return desired;
  }

  /** Which of two registrations comes first for a cluster name: its holder now, then the older Secret, then by name. */
  private precedence(a: Registration, b: Registration): number {
    const holds = (registration: Registration): number => (this.reported.get(registration.cluster)?.secret === registration.source.secret ? 0 : 1);
    const byAge = (a.created ?? '').localeCompare(b.created ?? '');
    return holds(a) - holds(b) || byAge || a.source.secret.localeCompare(b.source.secret);
  }

  /** Tells the target the difference between the valid registrations and what it was told. */
  private async reconcile(): Promise<void> {
    const desired = this.desired();
    for (const cluster of [...this.reported.keys()]) {
      if (desired.has(cluster)) continue;
      this.reported.delete(cluster);
      await this.report('remove', cluster, () => this.target.remove(cluster));
    }
    for (const [cluster, registration] of desired) {
      const known = this.reported.get(cluster);
      if (known?.digest === registration.digest) {
        known.secret = registration.source.secret;
        continue;
      }
      const done = await this.report('put', cluster, () => this.target.put(cluster, registration.source));
      if (done) this.reported.set(cluster, { digest: registration.digest, secret: registration.source.secret });
    }
  }

  /** One call to the target; a failure is logged (a put is tried again at the next change or relist). */
  private async report(action: 'put' | 'remove', cluster: string, call: () => Promise<void>): Promise<boolean> {
    try {
      await call();
      this.logger.info({ cluster, action }, 'cluster Secret applied');
      return true;
    } catch (error) {
      this.logger.warn({ cluster, action, err: error instanceof Error ? error.message : String(error) }, 'cluster Secret could not be applied');
      return false;
    }
  }
}

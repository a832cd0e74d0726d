import type { Logger } from 'pino';
import type { KubeIdentityClient } from '../clients.js';
import type { ResourceType } from '../discovery.js';
import { mapKubeError } from '../errors.js';
import type { RestClient } from '../rest-client.js';
import { TableCache } from './table-cache.js';
import { AppError } from '../../errors.js';
import { systemClock, type Clock } from '../../clock.js';

/** Which namespaces of a shared cache one caller may list: all of them, or these. */
export type ListAccess = { all: true } | { all: false; namespaces: ReadonlySet<string> };

const everything: ListAccess = { all: true };

/** The RBAC objects whose changes can change any caller's answer. */
const rbacTypes: ResourceType[] = ['roles', 'rolebindings', 'clusterroles', 'clusterrolebindings'].map((plural) => ({
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  kind: '',
  plural,
  singular: '',
  shortNames: [],
  namespaced: !plural.startsWith('cluster'),
  verbs: ['list', 'watch'],
}));

/**
 * The API server's authorizer lags its own RBAC watch by a moment: answers are dropped again this long after
 * a change, so one asked in between (and answered from the old rules) is not kept.
 */
const settleMs = 1_000;

/**
 * An answer is kept at most this long besides the RBAC invalidation: a change the RBAC watch cannot see (a
 * webhook or other authorizer) is seen within it. Live lists and caller caches are checked again as often.
 */
export const answerMaxAgeMs = 30_000;

interface KeptAnswer {
  answer: Promise<boolean>;
  /** When it was asked (the injected clock). */
  at: number;
}

/** Whether a list of `type` in `namespace` ('' for all namespaces or a cluster-scoped kind) is allowed to `client`. */
async function reviewList(client: KubeIdentityClient, type: ResourceType, namespace: string): Promise<boolean> {
  const review = await client.rest.json<{ status?: { allowed?: boolean } }>('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { namespace, verb: 'list', group: type.group, resource: type.plural } },
    },
    target: 'selfsubjectaccessreviews',
  });
  return review.status?.allowed === true;
}

/** The 403 the API server would give the caller for the list (same code, message and details as a refused list). */
export class ListRefused extends AppError {
  constructor(client: KubeIdentityClient, type: ResourceType, namespace: string | undefined) {
    const where = namespace ? ` in the namespace "${namespace}"` : ' at the cluster scope';
    const message = `${type.plural} is forbidden: User "${client.identity ?? ''}" cannot list resource "${type.plural}" in API group "${type.group}"${where}`;
    const refused = mapKubeError(403, { reason: 'Forbidden', message }, type.plural);
    super(refused.code, refused.message, refused.details);
  }
}

/**
 * What the cluster's RBAC lets each caller list, as the API server itself answers it: a
 * SelfSubjectAccessReview made as the caller's impersonated identity (user and groups), so every
 * authorizer (RBAC with aggregated roles, webhooks) is asked, not a copy of its rules. A list is allowed in a
 * namespace exactly when the review allows `list` there; `resourceNames` rules never allow an unfiltered
 * list, and the review says so. Answers are kept per identity (the client object: one per user and groups)
 * until a Role, ClusterRole, RoleBinding or ClusterRoleBinding changes (watched under the service's identity),
 * and never longer than `answerMaxAgeMs`; the listeners hear of both (every RBAC change, and every
 * `answerMaxAgeMs`), so live lists and caches listed as a caller are checked again.
 */
export class ListAccessSets {
  private answers = new WeakMap<KubeIdentityClient, Map<string, KeptAnswer>>();
  private watches: TableCache[] | undefined;
  /** True once every RBAC watch has its first list: until then (or when they cannot run) nothing is kept. */
  private watching = false;
  private settleTimer: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<() => void>();
  private readonly ticker: NodeJS.Timeout;

  constructor(
    private readonly own: () => RestClient,
    private readonly logger: Logger,
    private readonly clock: Clock = systemClock,
  ) {
    this.ticker = setInterval(() => this.tell(), answerMaxAgeMs);
    this.ticker.unref();
  }

  /**
   * The namespaces (of `present`, the namespaces the shared cache holds) where `client` may list `type`;
   * `scope` is the list's namespace (a namespaced list) or undefined (all namespaces, or a cluster-scoped kind).
   * Rejects when the review itself fails (the caller's list then goes to the API server as the caller).
   */
  async of(client: KubeIdentityClient, type: ResourceType, scope: string | undefined, present: () => Promise<Iterable<string>>): Promise<ListAccess> {
    this.watchRbac();
    if (await this.allowed(client, type, type.namespaced ? (scope ?? '') : '')) return everything;
    if (!type.namespaced || scope) return { all: false, namespaces: new Set() };
    const namespaces = [...(await present())];
    const answers = await Promise.all(namespaces.map((namespace) => this.allowed(client, type, namespace)));
    return { all: false, namespaces: new Set(namespaces.filter((_, index) => answers[index])) };
  }

  /**
   * Whether `client` may list `type` in `scope` itself (one namespace; undefined: all namespaces or a
   * cluster-scoped kind), as a list made as them would be authorized. Rejects when the review fails.
   */
  mayList(client: KubeIdentityClient, type: ResourceType, scope: string | undefined): Promise<boolean> {
    this.watchRbac();
    return this.allowed(client, type, type.namespaced ? (scope ?? '') : '');
  }

  /** Drops every kept answer (RBAC changed) and tells the listeners (live lists recompute their callers' access). */
  invalidate(): void {
    this.answers = new WeakMap();
    this.tell();
  }

  /** Called after every invalidation; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    clearInterval(this.ticker);
    this.stopWatches();
    clearTimeout(this.settleTimer);
  }

  private tell(): void {
    for (const listener of this.listeners) listener();
  }

  private allowed(client: KubeIdentityClient, type: ResourceType, namespace: string): Promise<boolean> {
    let kept = this.answers.get(client);
    if (!kept) this.answers.set(client, (kept = new Map()));
    const key = `${type.group}\u0000${type.plural}\u0000${namespace}`;
    const now = this.clock();
    const known = kept.get(key);
    if (known && now - known.at < answerMaxAgeMs) return known.answer;
    const answer = reviewList(client, type, namespace);
    if (!this.watching) return answer;
    const map = kept;
    const entry = { answer, at: now };
    map.set(key, entry);
    answer.catch(() => {
      if (map.get(key) === entry) map.delete(key);
    });
    return answer;
  }

  /** Stops the RBAC watches: nothing is kept until they run again (the next review starts them). */
  private stopWatches(): void {
    const watches = this.watches;
    this.watches = undefined;
    this.watching = false;
    for (const watch of watches ?? []) watch.stop();
  }

  /** Starts the RBAC watches once: every change (and every relist) drops the kept answers, now and a moment later. */
  private watchRbac(): void {
    if (this.watches) return;
    this.watches = rbacTypes.map((type) => {
      const watch = new TableCache(this.own(), type, undefined, this.logger);
      watch.synced.catch((error: unknown) => this.logger.warn({ resource: type.plural, err: String(error) }, 'cannot watch RBAC objects'));
      watch.subscribe(() => this.changed());
      // A watch that stops (its list refused) sees no more changes: nothing may be kept on its word.
      watch.onChange((change) => {
        if (change.type === 'stopped' && this.watches?.includes(watch)) {
          this.stopWatches();
          this.invalidate();
        }
      });
      return watch;
    });
    const watches = this.watches;
    Promise.all(watches.map((watch) => watch.synced)).then(
      () => {
        if (this.watches === watches) this.watching = true;
      },
      () => undefined,
    );
  }

  private changed(): void {
    this.invalidate();
    clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => this.invalidate(), settleMs);
    this.settleTimer.unref();
  }
}

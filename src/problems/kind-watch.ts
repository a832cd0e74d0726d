import type { Logger } from 'pino';
import { collectionPath } from '../kube/discovery.js';
import type { RestClient } from '../kube/rest-client.js';
import { jsonLines } from '../kube/watch-stream.js';
import type { KubeThing } from './shapes.js';
import type { WatchedKind } from './watched-kinds.js';

/** One change of a watched kind: an object put (added or modified) or deleted, or the whole kind relisted. */
export type KindChange = { type: 'put' | 'deleted'; object: KubeThing } | { type: 'relisted'; objects: KubeThing[] };

interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: KubeThing & { code?: number };
}

class Expired extends Error {}

const lastApplied = 'kubectl.kubernetes.io/last-applied-configuration';

/** Drops what no analyzer reads and what makes objects big (managedFields, last-applied-configuration). */
export function slimObject(object: KubeThing, kindName: string): KubeThing {
  const metadata = object.metadata ? { ...object.metadata } : {};
  delete (metadata as { managedFields?: unknown }).managedFields;
  if (metadata.annotations?.[lastApplied]) {
    const annotations = { ...metadata.annotations };
    delete annotations[lastApplied];
    metadata.annotations = annotations;
  }
  return { ...object, kind: kindName, metadata };
}

const delay = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * A full-object list and watch of one kind across all namespaces (level-based: any watch failure relists).
 * `synced` settles after the first list attempt (a kind the cluster does not serve or refuses counts as empty,
 * and is tried again with backoff).
 */
export class KindWatch {
  private resourceVersion = '';
  private readonly abort = new AbortController();
  readonly synced: Promise<void>;

  constructor(
    private readonly rest: () => RestClient,
    readonly kind: WatchedKind,
    private readonly onChange: (change: KindChange) => void,
    private readonly logger: Logger,
  ) {
    this.synced = this.list()
      .then(
        () => true,
        () => false,
      )
      .then((listed) => {
        void this.loop(listed);
      });
  }

  stop(): void {
    this.abort.abort();
  }

  private async list(): Promise<void> {
    const query = { ...(this.kind.fieldSelector ? { fieldSelector: this.kind.fieldSelector } : {}) };
    const body = await this.rest().json<{ items?: KubeThing[]; metadata?: { resourceVersion?: string } }>('GET', collectionPath(this.kind), {
      query,
      signal: this.abort.signal,
      target: this.kind.plural,
    });
    this.resourceVersion = body.metadata?.resourceVersion ?? '';
    this.onChange({ type: 'relisted', objects: (body.items ?? []).map((item) => slimObject(item, this.kind.kind)) });
  }

  private async loop(listed: boolean): Promise<void> {
    let failures = listed ? 0 : 1;
    while (!this.abort.signal.aborted) {
      try {
        if (failures > 0) await this.list();
        await this.watchOnce();
        failures = 0;
      } catch (error) {
        if (this.abort.signal.aborted) return;
        failures += 1;
        this.logger.debug({ resource: this.kind.plural, err: String(error) }, 'problems watch failed, relisting');
        if (!(error instanceof Expired)) await delay(Math.min(300_000, 250 * 2 ** Math.min(failures, 12)), this.abort.signal);
      }
    }
  }

  private async watchOnce(): Promise<void> {
    const response = await this.rest().raw('GET', collectionPath(this.kind), {
      query: {
        watch: 1,
        resourceVersion: this.resourceVersion,
        allowWatchBookmarks: true,
        timeoutSeconds: 300 + Math.floor(Math.random() * 300),
        ...(this.kind.fieldSelector ? { fieldSelector: this.kind.fieldSelector } : {}),
      },
      signal: this.abort.signal,
      target: this.kind.plural,
    });
    for await (const event of jsonLines<WatchEvent>(response)) this.apply(event);
  }

  private apply(event: WatchEvent): void {
    if (event.type === 'ERROR') throw event.object.code === 410 ? new Expired('resource version expired') : new Error(`watch error ${event.object.code ?? ''}`);
    this.resourceVersion = event.object.metadata?.resourceVersion ?? this.resourceVersion;
    if (event.type === 'BOOKMARK') return;
    this.onChange({ type: event.type === 'DELETED' ? 'deleted' : 'put', object: slimObject(event.object, this.kind.kind) });
  }
}

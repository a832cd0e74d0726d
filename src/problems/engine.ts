import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { ProblemsConfig } from '../config/problems-schema.js';
import type { ResourceType } from '../kube/discovery.js';
import type { RestClient } from '../kube/rest-client.js';
import { earliest, type Analyzer, type AnalyzerSettings } from './analyzer.js';
import { timerDeadlines, type Deadlines } from './deadlines.js';
import { findingId, type Finding, type FindingDraft, type ObjectRef } from './finding.js';
import { ignoredBecause } from './ignore-rules.js';
import { KindWatch, type KindChange } from './kind-watch.js';
import { objectKey, ObjectStore, refOf } from './object-store.js';
import { servedKinds, unservedRecheckMs } from './served-kinds.js';
import type { KubeThing } from './shapes.js';
import { watchedKinds, type WatchedKind } from './watched-kinds.js';

/** A finding that appeared, changed or went away. */
export interface FindingChange {
  type: 'added' | 'modified' | 'deleted';
  finding: Finding;
}

export interface ProblemsEngineOptions {
  cluster: string;
  /** The service's own client of the cluster (the watches run as it). */
  rest: () => RestClient;
  config: ProblemsConfig;
  clock: Clock;
  logger: Logger;
  deadlines?: Deadlines;
  kinds?: WatchedKind[];
  /** Where each kind's changes come from (default: a list and watch of the cluster, KindWatch); the bench feeds objects in process. */
  source?: (kind: WatchedKind, onChange: (change: KindChange) => void) => KindSource;
  /** The cluster's discovery: optional kinds (Argo CD's, Flux's) are watched only while it lists them. Without it, every kind is. */
  served?: () => Promise<ResourceType[]>;
  /** Every analyzer (src/problems/analyzers/index.ts), handed in by the composition. */
  analyzers: Analyzer[];
}

/** One kind's stream of changes: `synced` settles after its first list. */
export type KindSource = Pick<KindWatch, 'synced' | 'stop'>;

interface Dependent {
  kind: string;
  targets: (changed: KubeThing, objects: ObjectStore) => ObjectRef[];
}

/** The object an Event is about. */
function involvedRef(object: KubeThing): ObjectRef | undefined {
  const involved = object.involvedObject;
  if (object.kind !== 'Event' || !involved?.kind || !involved.name) return undefined;
  return { kind: involved.kind, ...(involved.namespace ? { namespace: involved.namespace } : {}), name: involved.name };
}

function refFromKey(key: string): ObjectRef {
  const [kind = '', namespace = '', ...name] = key.split('|');
  return { kind, ...(namespace ? { namespace } : {}), name: name.join('|') };
}

/** Whether two findings say the same (everything but lastSeen). */
function sameFinding(left: Finding, right: Finding): boolean {
  return JSON.stringify({ ...left, lastSeen: '' }) === JSON.stringify({ ...right, lastSeen: '' });
}

/**
 * One cluster's problems (docs/user-guide/problems.md): full-object watches of the kinds the analyzers read, and
 * the findings of every object, computed incrementally. A change analyzes the changed object again and the objects
 * that depend on it (a Service when a Pod of its namespace changes, a Deployment when its ReplicaSet does); time-based
 * rules ("pending for long") schedule a deadline per object. Nothing runs over the whole cluster on a timer.
 * Started by its first reader (`start`), closed with its cluster scope.
 */
export class ProblemsEngine {
  private readonly store = new ObjectStore();
  private readonly byObject = new Map<string, Map<string, Finding>>();
  private readonly byId = new Map<string, Finding>();
  private readonly deadlineOf = new Map<string, () => void>();
  private readonly analyzersOf = new Map<string, Array<{ analyzer: Analyzer; settings: AnalyzerSettings }>>();
  private readonly dependentsOf = new Map<string, Dependent[]>();
  private readonly listeners = new Set<(change: FindingChange) => void>();
  private readonly stopListeners = new Set<() => void>();
  /** True once the first analysis of every object is done. */
  ready = false;
  private readonly deadlines: Deadlines;
  private watches: KindSource[] = [];
  private started: Promise<void> | undefined;
  private syncing = true;
  private closed = false;
  /** Grows with every change of the findings (a live stream's revision). */
  revision = 0;

  constructor(private readonly options: ProblemsEngineOptions) {
    this.deadlines = options.deadlines ?? timerDeadlines(options.clock);
    for (const analyzer of options.analyzers) this.register(analyzer);
  }

  private register(analyzer: Analyzer): void {
    const configured = this.options.config.analyzers[analyzer.name];
    if (configured?.enabled === false) return;
    const settings = { ...analyzer.defaults, ...configured };
    this.analyzersOf.set(analyzer.kind, [...(this.analyzersOf.get(analyzer.kind) ?? []), { analyzer, settings }]);
    for (const [kind, targets] of Object.entries(analyzer.dependents ?? {})) {
      if (targets) this.dependentsOf.set(kind, [...(this.dependentsOf.get(kind) ?? []), { kind: analyzer.kind, targets }]);
    }
  }

  get cluster(): string {
    return this.options.cluster;
  }

  /** Starts the watches (once); resolves when every kind had its first list and every object was analyzed. */
  start(): Promise<void> {
    this.started ??= this.run();
    return this.started;
  }

  /** Whether `start` was called (readers that must not start it, such as /metrics, look first). */
  get running(): boolean {
    return this.started !== undefined && !this.closed;
  }

  /** Every current finding (ignored ones included, marked). */
  findings(): Finding[] {
    return [...this.byId.values()];
  }

  /** Called with every change of the findings once the first analysis is done; returns the unsubscribe function. */
  onChange(listener: (change: FindingChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called once when the engine closes (its cluster removed, the service stopping); returns the unsubscribe function. */
  onStop(listener: () => void): () => void {
    this.stopListeners.add(listener);
    return () => this.stopListeners.delete(listener);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const listener of this.stopListeners) listener();
    this.stopListeners.clear();
    for (const watch of this.watches) watch.stop();
    for (const cancel of this.deadlineOf.values()) cancel();
    this.deadlineOf.clear();
    this.listeners.clear();
  }

  private async run(): Promise<void> {
    if (!this.options.config.enabled) {
      this.ready = true;
      return;
    }
    const kinds = await servedKinds(this.options.kinds ?? watchedKinds, this.options.served);
    this.watches = kinds.now.map((kind) => this.watch(kind));
    await Promise.all(this.watches.map((watch) => watch.synced));
    if (this.closed) return;
    this.watchWhenServed(kinds.later);
    for (const kind of this.analyzersOf.keys()) for (const object of this.store.all(kind)) this.analyze(objectKey(refOf(object)));
    this.syncing = false;
    this.ready = true;
    this.options.logger.debug({ cluster: this.cluster, findings: this.byId.size }, 'problems analyzed');
  }

  private watch(kind: WatchedKind): KindSource {
    const onChange = (change: KindChange): void => this.changed(kind, change);
    return this.options.source ? this.options.source(kind, onChange) : new KindWatch(this.options.rest, kind, onChange, this.options.logger);
  }

  /** Asks discovery again, every few minutes, for the optional kinds it did not serve (Argo CD installed later). */
  private watchWhenServed(later: WatchedKind[]): void {
    if (later.length === 0 || this.closed) return;
    const cancel = this.deadlines.schedule(this.options.clock() + unservedRecheckMs, () => {
      this.stopListeners.delete(cancel);
      void servedKinds(later, this.options.served).then(({ now, later: still }) => {
        if (this.closed) return;
        this.watches.push(...now.map((kind) => this.watch(kind)));
        this.watchWhenServed(still);
      });
    });
    this.stopListeners.add(cancel);
  }

  private changed(kind: WatchedKind, change: KindChange): void {
    if (this.closed) return;
    const touched = new Set<string>();
    if (change.type === 'relisted') {
      this.store.markListed(kind.kind);
      const fresh = new Set(change.objects.map((object) => objectKey(refOf(object))));
      for (const old of this.store.all(kind.kind)) {
        if (!fresh.has(objectKey(refOf(old)))) this.collect(this.store.delete(old) ?? old, touched);
      }
      for (const object of change.objects) this.collect(object, touched, this.store.put(object));
    } else {
      const previous = change.type === 'put' ? this.store.put(change.object) : this.store.delete(change.object);
      this.collect(change.object, touched, previous);
    }
    if (this.syncing) return;
    for (const key of touched) this.analyze(key);
  }

  /** The keys to analyze again after `object` changed: itself, its dependents (old and new), an Event's object. */
  private collect(object: KubeThing, touched: Set<string>, previous?: KubeThing): void {
    touched.add(objectKey(refOf(object)));
    const involved = involvedRef(object);
    if (involved) touched.add(objectKey(involved));
    const versions = previous ? [object, previous] : [object];
    for (const dependent of this.dependentsOf.get(object.kind ?? '') ?? []) {
      for (const version of versions) for (const ref of dependent.targets(version, this.store)) touched.add(objectKey({ ...ref, kind: dependent.kind }));
    }
  }

  /** Analyzes one object again: its findings now replace the ones it had; its deadline is scheduled anew. */
  private analyze(key: string): void {
    const ref = refFromKey(key);
    const analyzers = this.analyzersOf.get(ref.kind);
    if (!analyzers) return;
    const object = this.store.get(ref.kind, ref.namespace, ref.name);
    const next = new Map<string, Finding>();
    let recheckAt: number | undefined;
    const now = this.options.clock();
    const ignored = object ? ignoredBecause(object, this.options.config.ignore) : undefined;
    for (const { analyzer, settings } of object ? analyzers : []) {
      const analysis = this.safely(analyzer, object as KubeThing, { objects: this.store, now, settings });
      recheckAt = earliest(recheckAt, analysis.recheckAt);
      for (const draft of analysis.findings) {
        const finding = this.findingOf({ analyzer: analyzer.name, ref, draft, owner: analysis.owner }, now, ignored);
        next.set(finding.id, finding);
      }
    }
    this.replace(key, next);
    this.scheduleRecheck(key, recheckAt);
  }

  private findingOf(found: { analyzer: string; ref: ObjectRef; draft: FindingDraft; owner?: ObjectRef }, now: number, ignored: string | undefined): Finding {
    const id = findingId(this.cluster, found.analyzer, found.ref, found.draft);
    const fields: Omit<FindingDraft, 'part'> & { part?: string } = { ...found.draft };
    delete fields.part;
    const seen = new Date(now).toISOString();
    const since = this.byId.get(id)?.since ?? seen;
    const extra = { ...(found.owner ? { owner: found.owner } : {}), ...(ignored ? { ignored } : {}) };
    return { id, cluster: this.cluster, analyzer: found.analyzer, ...fields, object: found.ref, ...extra, since, lastSeen: seen };
  }

  private safely(analyzer: Analyzer, object: KubeThing, context: Parameters<Analyzer['analyze']>[1]): ReturnType<Analyzer['analyze']> {
    try {
      return analyzer.analyze(object, context);
    } catch (error) {
      this.options.logger.warn({ analyzer: analyzer.name, err: String(error) }, 'analyzer failed');
      return { findings: [] };
    }
  }

  private replace(key: string, next: Map<string, Finding>): void {
    const previous = this.byObject.get(key) ?? new Map<string, Finding>();
    for (const [id, finding] of previous) {
      if (next.has(id)) continue;
      this.byId.delete(id);
      this.emit({ type: 'deleted', finding });
    }
    for (const [id, finding] of next) {
      const known = previous.get(id);
      this.byId.set(id, finding);
      if (!known) this.emit({ type: 'added', finding });
      else if (!sameFinding(known, finding)) this.emit({ type: 'modified', finding });
    }
    if (next.size) this.byObject.set(key, next);
    else this.byObject.delete(key);
  }

  private scheduleRecheck(key: string, at: number | undefined): void {
    this.deadlineOf.get(key)?.();
    this.deadlineOf.delete(key);
    if (at === undefined || this.closed) return;
    this.deadlineOf.set(
      key,
      this.deadlines.schedule(at, () => {
        this.deadlineOf.delete(key);
        if (!this.closed) this.analyze(key);
      }),
    );
  }

  private emit(change: FindingChange): void {
    this.revision += 1;
    if (this.syncing) return;
    for (const listener of this.listeners) listener(change);
  }
}

import { AppError } from '../errors.js';

/** Where a cluster came from (ADR 0035). */
export type ClusterSource = 'home' | 'config' | 'secret';

/** What the set keeps of each cluster: its name, source, and how to let it go. */
export interface ClusterMember {
  readonly name: string;
  readonly source: ClusterSource;
  /** Stops the cluster's watches and probes and closes its connections. */
  close(): Promise<void>;
}

export type ClusterChange = { type: 'added' | 'replaced' | 'removed'; name: string };

/**
 * The clusters of this process by name (ADR 0035): the home cluster, the ones of `clusters:` and the
 * ones registered by labelled Secrets, added and removed live. Lookups are by name; an unknown name is
 * a 404 with `details.cluster`.
 */
export class ClusterSet<T extends ClusterMember> {
  private readonly members = new Map<string, T>();
  private readonly listeners = new Set<(change: ClusterChange) => void>();

  constructor(readonly homeName: string) {}

  /** The home cluster (always present once the root added it). */
  get home(): T {
    const home = this.members.get(this.homeName);
    if (!home) throw new Error('the home cluster is not registered');
    return home;
  }

  get(name: string): T | undefined {
    return this.members.get(name);
  }

  /** The named cluster, the home cluster when no name is given; 404 NOT_FOUND for an unknown name. */
  resolve(name: string | undefined): T {
    if (name === undefined || name === '') return this.home;
    const member = this.members.get(name);
    if (!member) throw new AppError('NOT_FOUND', `cluster "${name}" not found`, { cluster: name });
    return member;
  }

  /** Every cluster, the home cluster first, then by name. */
  list(): T[] {
    return [...this.members.values()].sort((a, b) => rank(a, this.homeName) - rank(b, this.homeName) || a.name.localeCompare(b.name));
  }

  has(name: string): boolean {
    return this.members.has(name);
  }

  /** Adds a cluster, or replaces one of the same name (the old one is closed). */
  async put(member: T): Promise<void> {
    const old = this.members.get(member.name);
    this.members.set(member.name, member);
    if (old === member) return;
    this.emit({ type: old ? 'replaced' : 'added', name: member.name });
    if (old) await old.close();
  }

  /** Removes and closes a cluster (never the home cluster). */
  async remove(name: string): Promise<void> {
    if (name === this.homeName) throw new Error('the home cluster cannot be removed');
    const member = this.members.get(name);
    if (!member) return;
    this.members.delete(name);
    this.emit({ type: 'removed', name });
    await member.close();
  }

  onChange(listener: (change: ClusterChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Closes every cluster (service stop). */
  async closeAll(): Promise<void> {
    const all = [...this.members.values()];
    this.members.clear();
    await Promise.allSettled(all.map((member) => member.close()));
  }

  private emit(change: ClusterChange): void {
    for (const listener of this.listeners) listener(change);
  }
}

function rank(member: ClusterMember, home: string): number {
  return member.name === home ? 0 : 1;
}

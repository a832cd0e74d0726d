import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { notFound } from '../errors.js';
import type { HelmRepositoriesStore, HelmRepositoryRecord } from '../store/helm-repositories-store.js';
import type { HelmInvocation } from './helm-runner.js';
import { addRepository, listRepositories, removeRepository } from './repositories.js';

const sameList = (left: readonly HelmRepositoryRecord[], right: readonly HelmRepositoryRecord[]): boolean =>
  left.length === right.length && left.every((repository, index) => repository.name === right[index]?.name && repository.url === right[index]?.url);

/**
 * The chart repositories of the service (ADR 0032): the list lives in the shared store, and each
 * replica's helm home (`<dataDir>/helm`) follows it before a helm command that reads repositories
 * ({@link sync}): a repository added on one replica is listed, searched and installed from on any.
 * The store changes only after helm accepted the change (`helm repo add` fetches the index first).
 */
export class SharedHelmRepositories {
  /** What this replica's helm home held after its last sync (one SELECT decides whether helm runs at all). */
  private synced?: HelmRepositoryRecord[];

  constructor(private readonly store: HelmRepositoriesStore) {}

  list(): Promise<HelmRepositoryRecord[]> {
    return this.store.list();
  }

  /** Brings this replica's helm home to the shared list: adds or repoints what is missing, removes what is gone. */
  async sync(helm: HelmInvocation): Promise<void> {
    await this.importOnce(helm);
    const wanted = await this.store.list();
    if (this.synced && sameList(this.synced, wanted)) return;
    const local = new Map((await listRepositories(helm)).map((repository) => [repository.name, repository.url]));
    for (const repository of wanted) if (local.get(repository.name) !== repository.url) await addRepository(helm, repository.name, repository.url);
    const names = new Set(wanted.map((repository) => repository.name));
    for (const name of local.keys()) if (!names.has(name)) await removeRepository(helm, name);
    this.synced = wanted;
  }

  /**
   * A helm home from before the shared list (an upgrade) gives its repositories to the list once (a
   * marker file in the helm home), so the first sync does not remove them.
   */
  private async importOnce(helm: HelmInvocation): Promise<void> {
    const marker = join(helm.homeDirectory, 'repositories-shared');
    if (this.synced || existsSync(marker)) return;
    for (const repository of await listRepositories(helm)) await this.store.putIfAbsent(repository);
    mkdirSync(helm.homeDirectory, { recursive: true });
    writeFileSync(marker, 'the chart repositories of this helm home are in the shared store (ADR 0032)\n');
  }

  async add(helm: HelmInvocation, name: string, url: string): Promise<HelmRepositoryRecord> {
    await this.sync(helm);
    const added = await addRepository(helm, name, url);
    await this.store.put(added);
    this.synced = undefined;
    return added;
  }

  async remove(helm: HelmInvocation, name: string): Promise<{ name: string; removed: true }> {
    await this.sync(helm);
    if (!(await this.store.delete(name))) throw notFound(`no repository named ${name}`);
    this.synced = undefined;
    return removeRepository(helm, name);
  }
}

import type { SqlClient } from './sql-client.js';

/** A chart repository added through the API. */
export interface HelmRepositoryRecord {
  name: string;
  url: string;
}

/** Helm chart repositories shared by replicas (ADR 0032): the only SQL for `helm_repositories`. */
export class HelmRepositoriesStore {
  constructor(
    private readonly database: SqlClient,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {}

  /** Every repository, by name. */
  async list(): Promise<HelmRepositoryRecord[]> {
    return this.database.query<HelmRepositoryRecord>('SELECT name, url FROM helm_repositories ORDER BY name');
  }

  /** Adds a repository or points an existing name at `url`. */
  async put(repository: HelmRepositoryRecord): Promise<void> {
    await this.database.run(
      'INSERT INTO helm_repositories (name, url, updated_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET url = excluded.url, updated_at = excluded.updated_at',
      [repository.name, repository.url, this.now()],
    );
  }

  /** Adds a repository unless its name is taken (an import never repoints a shared one). */
  async putIfAbsent(repository: HelmRepositoryRecord): Promise<void> {
    await this.database.run('INSERT INTO helm_repositories (name, url, updated_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING', [
      repository.name,
      repository.url,
      this.now(),
    ]);
  }

  /** Removes a repository; false when there was none of that name. */
  async delete(name: string): Promise<boolean> {
    return (await this.database.run('DELETE FROM helm_repositories WHERE name = ?', [name])) === 1;
  }
}

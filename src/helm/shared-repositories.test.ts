import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDemoChartRepository, type ChartRepository } from '../../test/helpers/chart-repository.js';
import { openDatabase, type Db } from '../store/database.js';
import { HelmRepositoriesStore } from '../store/helm-repositories-store.js';
import { SqliteClient } from '../store/sql-client.js';
import { findBinary } from '../tools/binaries.js';
import type { HelmInvocation } from './helm-runner.js';
import { addRepository, listRepositories } from './repositories.js';
import { SharedHelmRepositories } from './shared-repositories.js';

// The real helm binary on a temp helm home; the shared list on the data dir's SQLite.
let directory: string;
let database: Db;
let charts: ChartRepository;
const helmOf = (home: string): HelmInvocation => ({ helmPath: findBinary('helm'), homeDirectory: join(directory, home), timeoutMs: 60_000 });

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'pilothouse-helm-shared-'));
  database = openDatabase(join(directory, 'data'));
  charts = await serveDemoChartRepository();
});

afterAll(() => {
  charts?.close();
  database?.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('shared helm repositories', () => {
  it('a helm home from before the shared list gives its repositories to it once; another home follows the list', async () => {
    const store = new HelmRepositoriesStore(new SqliteClient(database));
    await addRepository(helmOf('old'), 'kept', charts.url);
    await new SharedHelmRepositories(store).sync(helmOf('old'));
    expect(await store.list()).toEqual([{ name: 'kept', url: charts.url }]);
    expect(await listRepositories(helmOf('old'))).toEqual([{ name: 'kept', url: charts.url }]);
    const other = new SharedHelmRepositories(store);
    await other.sync(helmOf('new'));
    expect(await listRepositories(helmOf('new'))).toEqual([{ name: 'kept', url: charts.url }]);
    await store.delete('kept');
    await other.sync(helmOf('new'));
    expect(await listRepositories(helmOf('new'))).toEqual([]);
    // The import ran once: the old home's leftover entry does not come back to the list.
    await new SharedHelmRepositories(store).sync(helmOf('old'));
    expect(await store.list()).toEqual([]);
    expect(await listRepositories(helmOf('old'))).toEqual([]);
  }, 60_000);
});

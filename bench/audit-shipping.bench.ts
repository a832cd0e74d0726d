// How to run: `make bench` (needs Debian's PostgreSQL, as `make test`). Measures the audit outbox
// (docs/adr/0032-state-shared-on-postgresql.md): three replicas, each with its own SQLite data dir and
// the real AuditOutbox on one throw-away PostgreSQL, record audit rows at a steady rate; the lag of a row
// is the time from its local write (before the response) until PostgreSQL holds it, i.e. until every
// replica's GET /api/audit can answer it. Prints p50, p99 and max of that lag and the rows per second.
// Never part of the tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditLog } from '../src/audit/audit-log.js';
import { AuditOutbox } from '../src/audit/audit-outbox.js';
import { createLogger } from '../src/log.js';
import { openDatabase, type Db } from '../src/store/database.js';
import { PostgresClient } from '../src/store/postgres.js';
import { startPostgres } from '../test/helpers/postgres.js';

const replicas = 3;
const rowsPerSecond = Number(process.env.BENCH_AUDIT_RATE ?? 100);
const seconds = Number(process.env.BENCH_AUDIT_SECONDS ?? 10);
const logger = createLogger('silent');

interface Replica {
  directory: string;
  database: Db;
  log: AuditLog;
  outbox: AuditOutbox;
  /** Local id → when it was written (ms, performance clock). */
  written: Map<number, number>;
  /** How many of this replica's rows PostgreSQL holds (ids are shipped in order: ids 1…n). */
  shipped: number;
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

const postgres = await startPostgres();
const shared = new PostgresClient({ url: postgres.url, poolSize: 10, timeoutMs: 5_000, logger });
const observer = new PostgresClient({ url: postgres.url, poolSize: 1, timeoutMs: 5_000, logger });
const fleet: Replica[] = [];
try {
  await shared.ready();
  for (let index = 0; index < replicas; index += 1) {
    const directory = mkdtempSync(join(tmpdir(), 'pilothouse-bench-audit-'));
    const database = openDatabase(directory);
    const log = new AuditLog(database);
    const outbox = new AuditOutbox(log, shared, logger);
    outbox.start();
    fleet.push({ directory, database, log, outbox, written: new Map(), shipped: 0 });
  }
  const replicaIds = fleet.map((replica) => replica.log.replicaId(() => 'unused'));
  const lags: number[] = [];
  // Watches PostgreSQL every 5 ms: a row's lag ends when its replica's highest shipped id reaches it.
  let watching = true;
  const watcher = (async (): Promise<void> => {
    while (watching) {
      const rows = await observer.query<{ replica: string; shipped: string | number }>('SELECT replica, MAX(local_id) AS shipped FROM audit GROUP BY replica');
      const now = performance.now();
      for (const row of rows) {
        const replica = fleet[replicaIds.indexOf(row.replica)];
        if (!replica) continue;
        for (let id = replica.shipped + 1; id <= Number(row.shipped); id += 1) lags.push(now - (replica.written.get(id) ?? now));
        replica.shipped = Math.max(replica.shipped, Number(row.shipped));
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  const total = rowsPerSecond * seconds;
  const started = performance.now();
  for (let row = 0; row < total; row += 1) {
    const replica = fleet[row % replicas]!;
    const entry = replica.log.record({ user: 'bench', action: 'execute', resource: `bench/${row}`, decision: 'allow', details: { row } });
    replica.written.set(entry.id, performance.now());
    const due = started + ((row + 1) * 1_000) / rowsPerSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  const deadline = performance.now() + 30_000;
  while (lags.length < total && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  watching = false;
  await watcher;
  const sorted = [...lags].sort((left, right) => left - right);
  const [count] = await observer.query<{ count: string | number }>('SELECT COUNT(*) AS count FROM audit');
  console.log(`audit shipping lag, ${replicas} replicas × ${Math.round(rowsPerSecond / replicas)} rows/s for ${seconds} s (outbox every 250 ms):`);
  console.log(
    `  p50 ${percentile(sorted, 0.5).toFixed(0)} ms, p99 ${percentile(sorted, 0.99).toFixed(0)} ms, max ${(sorted.at(-1) ?? Number.NaN).toFixed(0)} ms; ` +
      `${sorted.length}/${total} rows shipped, ${Number(count?.count ?? 0)} in PostgreSQL`,
  );
} finally {
  for (const replica of fleet) {
    await replica.outbox.stop();
    replica.database.close();
    rmSync(replica.directory, { recursive: true, force: true });
  }
  await shared.close();
  await observer.close();
  postgres.remove();
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type RunningPostgres } from '../../test/helpers/postgres.js';
import { openDatabase, type Db } from './database.js';
import { numberedPlaceholders, PostgresClient } from './postgres.js';

// One schema, two engines (ADR 0040): the SQLite migrations (src/store/migrations.ts) and the PostgreSQL ones
// (src/store/postgres-migrations.ts) are written by hand in two dialects, so this test migrates both from empty and
// compares every shared table's columns, their kind and their nullability. A table kept by one engine only must be
// named below with the reason; any other difference fails.
const onlySqlite: Record<string, string> = {
  outbox_state: 'how far this replica shipped its audit rows to PostgreSQL (per replica by design)',
};
const onlyPostgres: Record<string, string> = {
  approvals: 'tool-call decisions across replicas (one replica decides in memory)',
  schema_migrations: 'the PostgreSQL migration ledger (SQLite uses PRAGMA user_version)',
};

/** Columns one engine keeps by design: the audit outbox (ADR 0032) numbers rows per replica and ships them. */
const ownColumns: Record<string, string> = {
  'audit.id': 'SQLite: the replica-local row number the outbox ships in order',
  'audit.shipped': 'SQLite: whether the outbox has shipped the row',
  'audit.seq': 'PostgreSQL: the shared order of every replica’s rows',
  'audit.replica': 'PostgreSQL: which replica wrote the row',
  'audit.local_id': 'PostgreSQL: the row’s number on its replica (shipping again never doubles it)',
};

type Kind = 'text' | 'integer' | 'real' | 'blob' | 'boolean';
interface Column {
  kind: Kind;
  nullable: boolean;
}
type Schema = Map<string, Map<string, Column>>;

/** SQLite declared types and PostgreSQL data types as one vocabulary (booleans are 0/1 integers in SQLite). */
function kindOf(type: string): Kind {
  const name = type.toLowerCase();
  if (/bool/.test(name)) return 'boolean';
  if (/int|serial/.test(name)) return 'integer';
  if (/real|double|float|numeric/.test(name)) return 'real';
  if (/blob|bytea/.test(name)) return 'blob';
  return 'text';
}

function sqliteSchema(database: Db): Schema {
  const tables = database.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).all() as { name: string }[];
  return new Map(
    tables.map(({ name }) => {
      const columns = database.prepare(`SELECT name, type, "notnull" AS required, pk FROM pragma_table_info(?)`).all(name) as {
        name: string;
        type: string;
        required: number;
        pk: number;
      }[];
      return [name, new Map(columns.map((column) => [column.name, { kind: kindOf(column.type), nullable: column.required === 0 && column.pk === 0 }]))];
    }),
  );
}

async function postgresSchema(client: PostgresClient): Promise<Schema> {
  const rows = await client.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>(
    `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
  );
  const schema: Schema = new Map();
  for (const row of rows) {
    const table = schema.get(row.table_name) ?? new Map<string, Column>();
    table.set(row.column_name, { kind: kindOf(row.data_type), nullable: row.is_nullable === 'YES' });
    schema.set(row.table_name, table);
  }
  return schema;
}

/** Booleans are integers in SQLite: the same column may be `boolean` on one side and `integer` on the other. */
const sameKind = (left: Kind, right: Kind): boolean => left === right || [left, right].every((kind) => kind === 'boolean' || kind === 'integer');

describe('one schema on both engines', () => {
  let postgres: RunningPostgres;
  let client: PostgresClient;
  let directory: string;
  let database: Db;
  let sqlite: Schema;
  let shared: Schema;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'pilothouse-schema-'));
    database = openDatabase(directory);
    postgres = await startPostgres();
    client = new PostgresClient({ url: postgres.url, poolSize: 2, timeoutMs: 5_000, logger: pino({ level: 'silent' }) });
    sqlite = sqliteSchema(database);
    shared = await postgresSchema(client);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await postgres?.remove();
    database?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('has the same tables, but those named as one engine’s own', () => {
    const sqliteTables = [...sqlite.keys()].filter((name) => !(name in onlySqlite)).sort();
    const postgresTables = [...shared.keys()].filter((name) => !(name in onlyPostgres)).sort();
    expect(postgresTables).toEqual(sqliteTables);
    for (const name of Object.keys(onlySqlite)) expect(sqlite.has(name), `${name} is listed as SQLite's own`).toBe(true);
    for (const name of Object.keys(onlyPostgres)) expect(shared.has(name), `${name} is listed as PostgreSQL's own`).toBe(true);
  });

  it('gives every shared table the same columns, of the same kind and nullability', () => {
    const differences: string[] = [];
    for (const [table, columns] of sqlite) {
      const other = shared.get(table);
      if (!other) continue;
      const names = new Set([...columns.keys(), ...other.keys()]);
      for (const name of names) {
        const left = columns.get(name);
        const right = other.get(name);
        if (`${table}.${name}` in ownColumns) continue;
        if (!left || !right) differences.push(`${table}.${name}: only on ${left ? 'SQLite' : 'PostgreSQL'}`);
        else if (!sameKind(left.kind, right.kind)) differences.push(`${table}.${name}: ${left.kind} on SQLite, ${right.kind} on PostgreSQL`);
        else if (left.nullable !== right.nullable) differences.push(`${table}.${name}: nullable ${left.nullable} on SQLite, ${right.nullable} on PostgreSQL`);
      }
    }
    expect(differences).toEqual([]);
  });
});

describe('placeholders for PostgreSQL', () => {
  it('numbers each ? parameter and leaves a ? inside a quoted string or identifier alone', () => {
    expect(numberedPlaceholders(`SELECT * FROM t WHERE a = ? AND b LIKE 'x?y' AND "c?" = ? AND d = 'it''s ?'`)).toBe(
      `SELECT * FROM t WHERE a = $1 AND b LIKE 'x?y' AND "c?" = $2 AND d = 'it''s ?'`,
    );
  });
});

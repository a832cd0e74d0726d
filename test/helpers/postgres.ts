import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './slapd.js';

/**
 * A throw-away PostgreSQL cluster from Debian's packages, in a temp dir: initdb and pg_ctl run as the
 * `postgres` user (the tests run as root), the socket lives in the temp dir, TCP on a free 127.0.0.1
 * port, trust auth. Starting fails (never skips) when PostgreSQL cannot start.
 */
export interface RunningPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  url: string;
  port: number;
  /** Stops the server (fast shutdown), keeping its data: `start()` brings it back on the same port. */
  stop(): void;
  start(): void;
  /** Stops the server and removes its directory. */
  remove(): void;
}

/** The newest installed PostgreSQL's bin directory (/usr/lib/postgresql/<major>/bin). */
function binDirectory(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((name) => existsSync(join(root, name, 'bin', 'initdb'))) : [];
  const newest = majors.sort((left, right) => Number(right) - Number(left))[0];
  if (!newest) throw new Error('PostgreSQL is not installed (no initdb under /usr/lib/postgresql/*/bin; apt-get install postgresql)');
  return join(root, newest, 'bin');
}

/** Runs a PostgreSQL binary as the `postgres` user; throws with its output on failure. */
function runAsPostgres(binary: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [command, commandArgs] = asRoot ? ['runuser', ['-u', 'postgres', '--', binary, ...args]] : [binary, args];
  const result = spawnSync(command, commandArgs, { encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`${binary} ${args[0] ?? ''} failed (${result.status ?? result.signal}): ${result.stderr}${result.stdout}`);
}

/** initdb + pg_ctl start in a new temp dir; about 3 s. */
export async function startPostgres(): Promise<RunningPostgres> {
  const bin = binDirectory();
  const directory = mkdtempSync(join(tmpdir(), 'pilothouse-pg-'));
  if (process.getuid?.() === 0) {
    const owner = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const group = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (owner.status !== 0) throw new Error('no postgres user on this machine (apt-get install postgresql)');
    chownSync(directory, Number(owner.stdout.trim()), Number(group.stdout.trim()));
  }
  const data = join(directory, 'data');
  const port = await freePort();
  const pgCtl = join(bin, 'pg_ctl');
  const options = `-k ${directory} -p ${port} -h 127.0.0.1 -F -c max_connections=200`;
  const start = (): void => runAsPostgres(pgCtl, ['start', '-w', '-t', '30', '-D', data, '-l', join(directory, 'server.log'), '-o', options]);
  const stop = (): void => {
    if (existsSync(join(data, 'postmaster.pid'))) runAsPostgres(pgCtl, ['stop', '-w', '-m', 'fast', '-D', data]);
  };
  try {
    runAsPostgres(join(bin, 'initdb'), ['-D', data, '--auth=trust', '--username=postgres', '--encoding=UTF8', '--no-sync']);
    start();
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop,
    start,
    remove: () => {
      try {
        stop();
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    },
  };
}

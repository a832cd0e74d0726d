import { chmod, mkdtemp, readdir, stat } from 'node:fs/promises';
import { chmodSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DiscoverySessionTarget } from '../types.js';
import { runProcess } from './process-runner.js';

/**
 * kubectl's discovery cache folder for a server `host:port` (k8s.io/cli-runtime `computeDiscoverCacheDir`:
 * every character but word characters, `/`, `.`, `(` and `)` becomes `_`).
 */
export function discoveryFolderName(hostAndPort: string): string {
  return hostAndPort.replace(/[^\w/.()]/g, '_');
}

/** The discovery cache folder kubectl uses for a policy proxy session (its kubeconfig names https://127.0.0.1:<port>). */
function sessionDiscoveryFolder(cacheDir: string, port: number): string {
  return path.join(cacheDir, 'discovery', discoveryFolderName(`127.0.0.1:${port}`));
}

/** One warmed copy of the discovery cache: the folder kubectl wrote it to and when. */
interface Generation {
  root: string;
  discovery: string;
  at: number;
}

/** What the shared cache needs: the kubectl binary and how old a warm copy may get. */
export interface SharedDiscoveryOptions {
  kubectlPath: string;
  /** A warm copy older than this is rebuilt by the next call (well below kubectl's own 6 h TTL). */
  maxAgeMs?: number;
  /** Parent of the service-private folders of the warm copies (default: the OS temp folder). */
  folderParent?: string;
}

/** Every file read-only, every folder read+search only (kubectl, unless root, then cannot write into the copy). */
async function freeze(folder: string): Promise<void> {
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const entryPath = path.join(folder, entry.name);
    if (entry.isDirectory()) await freeze(entryPath);
    else await chmod(entryPath, 0o444);
  }
  await chmod(folder, 0o555);
}

/** Makes the folders of a frozen copy writable again, so that it can be removed. */
function thaw(folder: string): void {
  chmodSync(folder, 0o700);
  for (const entry of readdirSync(folder, { withFileTypes: true })) if (entry.isDirectory()) thaw(path.join(folder, entry.name));
}

/** Removes a (possibly frozen) copy; a failure leaves it to the OS temp cleaner. */
function removeFrozen(folder: string): void {
  try {
    thaw(folder);
    rmSync(folder, { recursive: true, force: true });
  } catch {
    // left behind
  }
}

const live = new Set<SharedDiscoveryCache>();

/** The warm copies are service-private temporary files: they go when the process ends. */
function removeAtExit(cache: SharedDiscoveryCache): void {
  if (live.size === 0) process.once('exit', () => [...live].forEach((each) => each.close()));
  live.add(cache);
}

/**
 * kubectl's discovery cache of ONE cluster, warmed once and shared by the kubectl tool calls on that cluster.
 *
 * A fresh policy proxy per call means a new `127.0.0.1:<port>` per call, so kubectl's own disk cache
 * would start empty every time: two discovery requests and some 75 files written per call. Instead, one
 * call in a while runs `kubectl api-resources` through its own proxy session into a service-private folder
 * (never the session's); every call links its session's discovery folder for its proxy's port to that copy.
 * Discovery (`/api`, `/apis`) is public to every caller in the policy and the same for every identity of
 * one cluster, so sharing it among that cluster's callers shows nobody anything new.
 *
 * One instance belongs to one cluster scope (its policy proxy gateway builds sessions of that cluster only, and
 * closes the cache with it): the copies live in a folder of their own that no session of another cluster is
 * ever linked to, so kinds, short names and paths on cluster A are never resolved with cluster B's discovery
 * (security review four, finding 1). The copy is made read-only, but nothing relies on that (root ignores mode
 * bits): whatever kubectl may write there is fetched through a proxy of the same cluster. The copy is rebuilt
 * every two minutes of use (far below kubectl's 6 h TTL).
 */
export class SharedDiscoveryCache {
  private current: Generation | undefined;
  private warming: Promise<Generation | undefined> | undefined;
  private readonly old: Generation[] = [];
  private parent: Promise<string> | undefined;
  private parentPath: string | undefined;

  constructor(private readonly options: SharedDiscoveryOptions) {}

  /**
   * Points the session's discovery cache (in `cacheDir`) at the shared warm copy. Without one, it is built
   * first through this session; when it is old, it is rebuilt through this session while the call runs
   * (`settle` waits for that). Best effort: on any failure kubectl just starts cold.
   */
  async prepare(session: DiscoverySessionTarget, cacheDir: string): Promise<void> {
    const port = session.socket.port;
    if (port <= 0) return;
    const generation = this.current ?? (await this.rebuild(session));
    if (!this.fresh(generation)) void this.rebuild(session);
    if (!generation) return;
    const link = sessionDiscoveryFolder(cacheDir, port);
    // Synchronous: two small local writes per call, not several trips through the thread pool.
    try {
      mkdirSync(path.dirname(link), { recursive: true, mode: 0o700 });
      symlinkSync(generation.discovery, link, 'dir');
    } catch {
      // kubectl starts cold
    }
  }

  /** After the call, before its session closes: a rebuild through it has finished. */
  async settle(): Promise<void> {
    await this.warming;
  }

  /** Removes the warm copies (synchronous: it runs on process exit). */
  close(): void {
    if (this.parentPath) removeFrozen(this.parentPath);
    this.old.length = 0;
    this.current = undefined;
    this.parent = this.parentPath = undefined;
    live.delete(this);
  }

  private fresh(generation: Generation | undefined): boolean {
    return generation !== undefined && Date.now() - generation.at < (this.options.maxAgeMs ?? 2 * 60_000);
  }

  /** One rebuild at a time; never rejects (undefined or the old copy when it fails). */
  private rebuild(session: DiscoverySessionTarget): Promise<Generation | undefined> {
    this.warming ??= this.build(session)
      .catch(() => this.current)
      .finally(() => (this.warming = undefined));
    return this.warming;
  }

  private async build(session: DiscoverySessionTarget): Promise<Generation | undefined> {
    this.parent ??= mkdtemp(path.join(this.options.folderParent ?? tmpdir(), 'pilothouse-discovery-'));
    this.parentPath = await this.parent;
    removeAtExit(this);
    const root = await mkdtemp(path.join(this.parentPath, 'copy-'));
    const cacheDir = path.join(root, 'cache');
    const result = await runProcess({
      file: this.options.kubectlPath,
      args: ['--kubeconfig', session.kubeconfigPath, '--cache-dir', cacheDir, 'api-resources', '-o', 'name'],
      environment: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, KUBERC: 'off' },
      timeoutMs: 30_000,
      outputLimit: 64 * 1024,
    });
    const discovery = sessionDiscoveryFolder(cacheDir, session.socket.port);
    const complete = await stat(path.join(discovery, 'servergroups.json')).then(
      () => true,
      () => false,
    );
    if (result.isError || !complete) {
      removeFrozen(root);
      return this.current;
    }
    await freeze(root);
    if (this.current) this.old.push(this.current);
    this.current = { root, discovery, at: Date.now() };
    // A call that started on an older copy may still read it: two older copies are kept.
    while (this.old.length > 2) removeFrozen(this.old.shift()!.root);
    return this.current;
  }
}

import { notFound } from '../errors.js';

/** One cluster as the AI pilot tells the model about it (no address, no credential). */
export interface ClusterListing {
  name: string;
  reachable: boolean;
  /** The API server's gitVersion, when it was reached. */
  version?: string;
}

/**
 * The clusters a chat may target (ADR 0035), as the pilot needs them: the home cluster's name, the
 * names a tool call may use, and their reachability for the system prompt. The chat route builds it
 * from the cluster set ({@link clusterDirectoryOf}) and hands it to the turn.
 */
export interface ClusterDirectory {
  /** The home cluster's name (`cluster.name`): a chat's cluster and a tool call's target when none is named. */
  readonly home: string;
  /** Every cluster's name, the home cluster first. */
  names(): string[];
  /** Every cluster with its reachability, the home cluster first. */
  describe(): ClusterListing[];
}

/** What the directory reads of the cluster set (`ClusterSet<ClusterScope>`): the home name and each cluster's last probe. */
export interface ClusterSource {
  readonly homeName: string;
  list(): readonly { name: string; health: { current: { reachable: boolean; version?: string } } }[];
}

/**
 * The directory over the cluster set: names, reachability and version as last probed, read live (a cluster
 * Secret added or removed shows in the next turn's prompt). Never an address or an error text.
 */
export function clusterDirectoryOf(clusters: ClusterSource): ClusterDirectory {
  const listing = ({ name, health: { current } }: ReturnType<ClusterSource['list']>[number]): ClusterListing => ({
    name,
    reachable: current.reachable,
    ...(current.version ? { version: current.version } : {}),
  });
  return {
    get home() {
      return clusters.homeName;
    },
    names: () => clusters.list().map((cluster) => cluster.name),
    describe: () => clusters.list().map(listing),
  };
}

/** The directory of a process that serves one cluster (tests, and until the cluster set is wired). */
export function singleClusterDirectory(home = 'home'): ClusterDirectory {
  return { home, names: () => [home], describe: () => [{ name: home, reachable: true }] };
}

/**
 * The cluster a chat turn is about: `requested` when the directory knows it, the home cluster when none is
 * named; an unknown name is NOT_FOUND with `details.cluster` (the names are not secret: GET /api/clusters).
 */
export function chatCluster(directory: ClusterDirectory, requested: string | undefined): string {
  if (requested === undefined || requested === '') return directory.home;
  if (!directory.names().includes(requested)) throw notFound(`cluster "${requested}" not found`, { cluster: requested });
  return requested;
}

/** A tool call's target: its valid `cluster` argument, else the chat's cluster; `unknown` for a name the directory lacks. */
export type ToolTarget = { ok: true; cluster: string } | { ok: false; reason: string };

/**
 * Where a kubectl or bash call goes: the `cluster` argument the model gave (it must be a known name),
 * else the chat's cluster. A refusal is a sentence the model can read and act on.
 */
export function toolTarget(directory: ClusterDirectory, argument: unknown, chatClusterName: string): ToolTarget {
  if (argument === undefined || argument === null || argument === '') return { ok: true, cluster: chatClusterName };
  const names = directory.names();
  if (typeof argument === 'string' && names.includes(argument)) return { ok: true, cluster: argument };
  const shown = typeof argument === 'string' ? argument : JSON.stringify(argument);
  return { ok: false, reason: `Unknown cluster "${shown.slice(0, 80)}": the clusters are ${names.join(', ')}; the command was not run.` };
}

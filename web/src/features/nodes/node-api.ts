/** The part of a Node object the Operations tab reads. */
export interface NodeObject {
  spec?: { unschedulable?: boolean };
}

/** Options of `POST /api/node/drain`. */
export interface DrainOptions {
  ignoreDaemonSets: boolean;
  deleteLocalData: boolean;
  force: boolean;
}

/** The kubectl line a drain with these options corresponds to (shown in the confirm dialog). */
export function drainFlags(options: DrainOptions): string {
  const flags = [options.ignoreDaemonSets && '--ignore-daemonsets', options.deleteLocalData && '--delete-emptydir-data', options.force && '--force'];
  return flags.filter(Boolean).join(' ');
}

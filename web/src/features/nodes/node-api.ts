import type { ResourceItem } from '@pilothouse/wire/types';

/** `GET /api/nodes/{name}/pods`. */
export interface NodePods {
  items: ResourceItem[];
  total: number;
}

/** The part of a Node object the Operations tab reads. */
export interface NodeObject {
  spec?: { unschedulable?: boolean };
}

/** `POST /api/node/cordon` and `/api/node/uncordon`. */
export interface CordonResult {
  name: string;
  before?: { unschedulable?: boolean };
  after?: { unschedulable?: boolean };
}

/** Options of `POST /api/node/drain`. */
export interface DrainOptions {
  ignoreDaemonSets: boolean;
  deleteLocalData: boolean;
  force: boolean;
}

export const podsPath = (name: string): string => `/api/nodes/${encodeURIComponent(name)}/pods`;

/** The kubectl line a drain with these options corresponds to (shown in the confirm dialog). */
export function drainFlags(options: DrainOptions): string {
  const flags = [options.ignoreDaemonSets && '--ignore-daemonsets', options.deleteLocalData && '--delete-emptydir-data', options.force && '--force'];
  return flags.filter(Boolean).join(' ');
}

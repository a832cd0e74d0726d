import type { ClusterList, ClusterSummary } from '../api/types.js';

/** `--cluster NAME` names no cluster the service serves: the terminal UI ends with this (exit 2, like a bad flag). */
export class UnknownClusterError extends Error {
  override name = 'UnknownClusterError';
}

/** The words of the `:` line that switch clusters: alone they open the picker, with a name they switch to it. */
export const clusterWords = ['ctx', 'context', 'cluster', 'clusters'] as const;

/** The cluster of the list called `name`; undefined when there is none (the error line names `clusterNames`). */
export function clusterNamed(list: ClusterList, name: string): ClusterSummary | undefined {
  return list.items.find((item) => item.name === name);
}

/** The clusters there are, for the error line of an unknown name: `home, staging`. */
export const clusterNames = (list: ClusterList): string => list.items.map((item) => item.name).join(', ');

/** One row of the picker: the name, `home` for the home cluster, its version, or `down` and why. */
export interface PickerRow {
  name: string;
  text: string;
  reachable: boolean;
  current: boolean;
}

/** The picker's rows, the current cluster marked (`*`), down clusters with their error. */
export function pickerRows(list: ClusterList, current: string | undefined, labels: { down: string; home: string }): PickerRow[] {
  const width = Math.max(...list.items.map((item) => item.name.length));
  return list.items.map((item) => {
    const state = item.reachable ? (item.version ?? '') : `${labels.down}${item.error ? `: ${item.error}` : ''}`;
    const home = item.name === list.home ? ` (${labels.home})` : '';
    const mark = item.name === (current ?? list.home) ? '*' : ' ';
    return { name: item.name, text: `${mark} ${item.name.padEnd(width)}  ${state}${home}`, reachable: item.reachable, current: mark === '*' };
  });
}

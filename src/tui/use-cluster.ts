import { useState } from 'react';
import type { PilothouseApi } from './api/pilothouse-api.js';
import type { ClusterList } from './api/types.js';
import { errorLine } from '@pilothouse/wire/wire-client';
import { clusterNamed, clusterNames, UnknownClusterError } from './core/clusters.js';
import type { Translate } from './core/i18n.js';
import type { Modal } from './core/modal.js';

type Prompt = <T>(make: (resolve: (value: T) => void) => Modal) => Promise<T>;

export interface ClusterHooks {
  api: PilothouseApi;
  t: Translate;
  prompt: Prompt;
  report(error: unknown): void;
  notice(text: string): void;
  /** After a switch: the views start over on the new cluster. */
  switched(): void;
  /** `--cluster` names no cluster: the terminal UI ends with this error. */
  fail(error: Error): void;
}

export interface ClusterState {
  /**
   * The cluster the views show, for the header: named once the service serves more than one cluster (or after
   * `--cluster` or a switch); undefined while it serves only its home cluster (nothing to tell apart).
   */
  name: string | undefined;
  /** False until the start cluster (`--cluster`) is known to exist: the views wait for it. */
  ready: boolean;
  /** Counts switches; the views are keyed by it, so every list, stream and log starts again on the new cluster. */
  epoch: number;
  /** `:ctx NAME` switches (an unknown name: an error line); `:ctx` alone opens the picker. */
  switchTo(name: string | undefined): void;
  /** Once signed in: checks `--cluster` (or learns the home cluster's name). */
  check(): void;
}

/**
 * The terminal UI's current cluster (ADR 0035). It lives in the API client (every cluster-facing request names it);
 * `check` (once signed in) checks `--cluster`, shows the home cluster's name when none was named, and switches.
 */
export function useCluster(hooks: ClusterHooks, start: string | undefined): ClusterState {
  const { api, t } = hooks;
  const [name, setName] = useState<string | undefined>(start);
  const [ready, setReady] = useState(start === undefined);
  const [epoch, setEpoch] = useState(0);
  const unknown = (list: ClusterList, wanted: string): string => t('tui.error.unknownCluster', { cluster: wanted, clusters: clusterNames(list) });
  const check = (): void => {
    api.clusters().then(
      (list) => {
        if (start === undefined) return setName(list.items.length > 1 ? list.home : undefined);
        if (!clusterNamed(list, start)) return hooks.fail(new UnknownClusterError(unknown(list, start)));
        setReady(true);
      },
      (error: unknown) => (start === undefined ? undefined : hooks.fail(new UnknownClusterError(`--cluster ${start}: ${errorLine(error)}`))),
    );
  };
  const switchTo = async (wanted: string | undefined): Promise<void> => {
    const list = await api.clusters();
    const chosen = wanted ?? (await hooks.prompt<string | undefined>((resolve) => ({ kind: 'clusters', list, current: name, resolve })));
    if (chosen === undefined) return;
    const cluster = clusterNamed(list, chosen);
    if (!cluster) return hooks.report(new Error(unknown(list, chosen)));
    api.client.useCluster(chosen);
    setName(chosen);
    setEpoch((value) => value + 1);
    hooks.switched();
    hooks.notice(t(cluster.reachable ? 'tui.notice.cluster' : 'tui.notice.clusterDown', { cluster: chosen, error: cluster.error ?? '' }));
  };
  return { name, ready, epoch, check, switchTo: (wanted) => void switchTo(wanted).catch(hooks.report) };
}

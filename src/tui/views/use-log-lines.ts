import { useEffect, useState } from 'react';
import { podContainers, streamLog } from '../api/log-stream.js';
import type { Target } from '../api/types.js';
import type { Shell } from '../core/shell.js';

/** Lines kept per log view; older ones drop off the top. */
const keptLines = 5_000;
/** Lines arriving together are drawn at most this often. */
const drawMs = 50;

export interface LogSettings {
  allContainers: boolean;
  previous: boolean;
}

/** The log lines of a pod (one container, or every container with `[name]` prefixes), streamed as they come. */
export function useLogLines(shell: Shell, pod: Target, settings: LogSettings): { lines: string[]; containers: string[] } {
  const [lines, setLines] = useState<string[]>([]);
  const [containers, setContainers] = useState<string[]>([]);
  useEffect(() => {
    const controller = new AbortController();
    let buffer: string[] = [];
    let timer: NodeJS.Timeout | undefined;
    const flush = (): void => {
      timer = undefined;
      const arrived = buffer;
      buffer = [];
      setLines((previous) => [...previous, ...arrived].slice(-keptLines));
    };
    const add = (line: string): void => {
      buffer.push(line);
      timer ??= setTimeout(flush, drawMs);
    };
    setLines([]);
    void (async () => {
      const names = await podContainers(shell.api.client, pod);
      setContainers(names);
      const chosen = settings.allContainers ? names : names.slice(0, 1);
      await Promise.all(
        chosen.map((container) =>
          streamLog(shell.api.client, pod, { container, follow: !settings.previous, previous: settings.previous, signal: controller.signal }, (line) =>
            add(settings.allContainers ? `[${container}] ${line}` : line),
          ),
        ),
      );
    })().catch((error: unknown) => {
      if (!controller.signal.aborted) shell.report(error);
    });
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [pod.name, pod.namespace, settings.allContainers, settings.previous]);
  return { lines, containers };
}

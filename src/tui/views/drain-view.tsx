import { Box, Text } from 'ink';
import { useEffect, useState, type ReactElement } from 'react';
import { useShell } from '../core/shell.js';
import { serverEvents } from '@pilothouse/wire/wire-client';
import { useScroll } from '../components/scroll-lines.js';

export interface DrainViewProps {
  node: string;
  id: string;
  height: number;
  active: boolean;
}

interface DrainPod {
  namespace: string;
  name: string;
  status?: string;
  reason?: string;
}

/** The line a drain progress event shows. */
function progressLine(event: string, data: Record<string, unknown>, t: (key: string, values?: Record<string, string | number>) => string): string | undefined {
  if (event === 'cordoned') return t('tui.drain.cordoned', { node: String(data.node) });
  if (event === 'pod') {
    const pod = data as unknown as DrainPod;
    return `${pod.status ?? ''}\t${pod.namespace}/${pod.name}${pod.reason ? ` (${pod.reason})` : ''}`;
  }
  if (event === 'result')
    return t('tui.drain.result', { status: String(data.status), evicted: Number(data.evicted ?? 0) }) + (data.message ? `: ${String(data.message)}` : '');
  return undefined;
}

/** `r` on a node: the drain's live progress (GET /api/node/drain/{id}, SSE). */
export function DrainView(props: DrainViewProps): ReactElement {
  const shell = useShell();
  const [lines, setLines] = useState<string[]>([]);
  const scroll = useScroll(lines.length, Math.max(1, props.height - 1), props.active);
  useEffect(() => {
    const controller = new AbortController();
    void (async () => {
      const response = await shell.api.client.stream(`/api/node/drain/${encodeURIComponent(props.id)}`, {}, controller.signal);
      for await (const event of serverEvents(response.body as unknown as AsyncIterable<Uint8Array>)) {
        const line = progressLine(event.event, event.data as Record<string, unknown>, shell.t);
        if (line) setLines((previous) => [...previous, line]);
      }
    })().catch((error: unknown) => {
      if (!controller.signal.aborted) shell.report(error);
    });
    return () => controller.abort();
  }, [props.id]);
  return (
    <Box flexDirection="column">
      <Text bold color="cyan">
        {shell.t('tui.view.drain', { node: props.node })}
      </Text>
      {lines.slice(scroll.top, scroll.top + props.height - 1).map((line, index) => (
        <Text key={scroll.top + index} wrap="truncate">
          {line.replace('\t', ' ')}
        </Text>
      ))}
    </Box>
  );
}

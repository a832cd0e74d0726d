import { Box, Text, useInput } from 'ink';
import { useEffect, useState, type ReactElement } from 'react';
import { useShell } from '../core/shell.js';
import { actionFor, type ActionName } from '../core/key-map.js';
import { nextMatch, useScroll } from '../components/scroll-lines.js';
import { SearchedLines, useTextSearch } from '../components/search-line.js';
import type { Target } from '../api/types.js';
import { useLogLines, type LogSettings } from './use-log-lines.js';

export interface LogsViewProps {
  target: Target;
  height: number;
  width: number;
  active: boolean;
}

const toggles: Partial<Record<ActionName, keyof LogSettings | 'wrap' | 'follow'>> = {
  follow: 'follow',
  allContainers: 'allContainers',
  previous: 'previous',
  wrap: 'wrap',
};

/** Wraps long lines into screen lines of `width` characters when `wrap` is on. */
function screenLines(lines: string[], wrap: boolean, width: number): string[] {
  if (!wrap) return lines;
  return lines.flatMap((line) => (line.length <= width ? [line] : (line.match(new RegExp(`.{1,${Math.max(1, width)}}`, 'gu')) ?? [line])));
}

/** Pod logs, streamed: follow the end (`f`), all containers (`0`), previous (`p`), wrap (`w`), `/` search. */
export function LogsView(props: LogsViewProps): ReactElement {
  const shell = useShell();
  const [settings, setSettings] = useState({ follow: true, allContainers: false, previous: false, wrap: false });
  const search = useTextSearch(shell);
  const searching = search.open;
  const needle = search.needle;
  const { lines, containers } = useLogLines(shell, props.target, settings);
  const shown = screenLines(lines, settings.wrap, props.width);
  const bodyHeight = Math.max(1, props.height - 1 - (searching ? 1 : 0));
  const scroll = useScroll(shown.length, bodyHeight, props.active && !searching);
  useEffect(() => {
    if (settings.follow) scroll.setTop(shown.length);
  }, [shown.length, settings.follow]);
  useInput(
    (input, key) => {
      const action = actionFor('logs', shell, input, key);
      const toggle = action ? toggles[action] : undefined;
      if (toggle) setSettings((current) => ({ ...current, [toggle]: !current[toggle] }));
      else if (action === 'search') {
        search.start();
      } else if (action === 'nextMatch') {
        const found = nextMatch(shown, needle, scroll.top);
        if (found >= 0) setSettings((current) => ({ ...current, follow: false }));
        if (found >= 0) scroll.setTop(found);
      }
    },
    { isActive: props.active && !searching },
  );
  const flags = (['follow', 'allContainers', 'previous', 'wrap'] as const).filter((name) => settings[name]).map((name) => shell.t(`tui.key.${name}`));
  const container = settings.allContainers ? containers.join(',') : (containers[0] ?? '');
  return (
    <Box flexDirection="column">
      <Text bold color="cyan" wrap="truncate">
        {shell.t('tui.view.logs')}: {props.target.name}
        {container ? ` [${container}]` : ''} {flags.length ? `(${flags.join(', ')})` : ''}
      </Text>
      <SearchedLines
        lines={shown.slice(scroll.top, scroll.top + bodyHeight)}
        top={scroll.top}
        search={search}
        onTerm={(value) => {
          const found = nextMatch(shown, value, scroll.top - 1);
          if (found >= 0) {
            setSettings((current) => ({ ...current, follow: false }));
            scroll.setTop(found);
          }
        }}
      />
    </Box>
  );
}

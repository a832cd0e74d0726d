import { Box, Text, useInput } from 'ink';
import { useEffect, useMemo, useState, type ReactElement } from 'react';
import stringWidth from 'string-width';
import { useShell } from '../core/shell.js';
import { wrapToWidth } from '../core/wrap.js';
import { nextMatch, useScroll } from '../components/scroll-lines.js';
import { SearchedLines, useTextSearch } from '../components/search-line.js';
import { actionFor } from '../core/key-map.js';

export interface TextViewProps {
  view: 'describe' | 'yaml';
  title: string;
  load: () => Promise<string>;
  height: number;
  width: number;
  active: boolean;
}

/** One line cut at spaces into pieces of at most `width` cells (core/wrap.ts); the pieces after the first keep its indentation, two deeper. */
function wrapLine(line: string, width: number): string[] {
  if (stringWidth(line) <= width) return [line];
  const leading = /^\s*/.exec(line)?.[0] ?? '';
  const indent = ' '.repeat(Math.min(Math.floor(width / 2), leading.length + 2));
  const [first = '', ...rest] = wrapToWidth(line.slice(leading.length), width - indent.length);
  return [leading + first, ...rest.map((piece) => indent + piece)];
}

/** Every line wrapped to `width` cells. */
export function wrapLines(lines: string[], width: number): string[] {
  return lines.flatMap((line) => wrapLine(line, Math.max(8, width)));
}

/** Describe and YAML: scrollable, `/` searches, `n` jumps to the next match. */
export function TextView(props: TextViewProps): ReactElement {
  const shell = useShell();
  const [loaded, setLines] = useState<string[] | undefined>(undefined);
  // Describe wraps its long lines (events, messages, annotations) instead of cutting them; YAML keeps one line per line.
  const lines = useMemo(() => (loaded && props.view === 'describe' ? wrapLines(loaded, props.width) : loaded), [loaded, props.view, props.width]);
  const search = useTextSearch(shell);
  const searching = search.open;
  const needle = search.needle;
  const bodyHeight = Math.max(1, props.height - 1 - (searching ? 1 : 0));
  const scroll = useScroll(lines?.length ?? 0, bodyHeight, props.active && !searching);
  useEffect(() => {
    props.load().then(
      (text) => setLines(text.replace(/\n$/, '').split('\n')),
      (error: unknown) => {
        setLines([]);
        shell.report(error);
      },
    );
  }, [props.load]); // the loader is fixed per view
  const jump = (term: string, from: number): void => {
    const found = nextMatch(lines ?? [], term, from);
    if (found >= 0) scroll.setTop(found);
    else if (term) shell.notice(shell.t('tui.notice.noMatch', { text: term }));
  };
  useInput(
    (input, key) => {
      const action = actionFor(props.view, shell, input, key);
      if (action === 'search') {
        search.start();
      } else if (action === 'nextMatch') jump(needle, scroll.top);
    },
    { isActive: props.active && !searching },
  );
  const visible = (lines ?? []).slice(scroll.top, scroll.top + bodyHeight);
  return (
    <Box flexDirection="column">
      <Text bold>
        {shell.t(`tui.view.${props.view}`)}: {props.title}
        {lines === undefined ? ` ${shell.t('tui.loading')}` : ''}
      </Text>
      <SearchedLines
        lines={visible}
        top={scroll.top}
        search={search}
        onTerm={(value) => {
          jump(value, scroll.top - 1);
        }}
      />
    </Box>
  );
}

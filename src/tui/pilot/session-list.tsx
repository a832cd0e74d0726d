import { Box, Text, useInput } from 'ink';
import { useEffect, useState, type ReactElement } from 'react';
import type { Translate } from '../core/i18n.js';
import { PaneFrame } from './pane-frame.js';
import type { ChatSessionSummary } from './pilot-types.js';

export interface SessionListProps {
  load(): Promise<ChatSessionSummary[]>;
  width: number;
  height: number;
  active: boolean;
  t: Translate;
  ascii: boolean;
  onOpen(id: string): void;
  onBack(): void;
  onError(error: unknown): void;
}

const when = (iso: string): string => iso.replace('T', ' ').slice(0, 16);

/** `h` in the pane: the caller's chat sessions, newest first; enter opens one, esc goes back. */
export function SessionList(props: SessionListProps): ReactElement {
  const [sessions, setSessions] = useState<ChatSessionSummary[] | undefined>(undefined);
  const [cursor, setCursor] = useState(0);
  useEffect(() => {
    props.load().then(
      (items) => setSessions([...items].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))),
      (error: unknown) => (props.onError(error), setSessions([])),
    );
  }, []);
  const count = sessions?.length ?? 0;
  useInput(
    (input, key) => {
      if (key.escape) return props.onBack();
      if (key.return && sessions?.[cursor]) return props.onOpen(sessions[cursor].id);
      if (key.downArrow || input === 'j') setCursor((at) => Math.min(count - 1, at + 1));
      if (key.upArrow || input === 'k') setCursor((at) => Math.max(0, at - 1));
    },
    { isActive: props.active },
  );
  const room = Math.max(1, props.height - 2);
  const top = Math.max(0, Math.min(cursor - room + 1, count - room));
  return (
    <PaneFrame width={props.width} height={props.height} ascii={props.ascii}>
      <Text bold color="cyan">
        {props.t('tui.pilot.sessions.title')}
      </Text>
      <Box flexDirection="column" height={room} overflow="hidden">
        {sessions?.length === 0 ? <Text dimColor>{props.t('tui.pilot.sessions.empty')}</Text> : null}
        {(sessions ?? []).slice(top, top + room).map((session, index) => (
          <Text key={session.id} wrap="truncate" inverse={top + index === cursor}>
            {when(session.updatedAt)} {session.title}
          </Text>
        ))}
      </Box>
      <Text dimColor wrap="truncate">
        {props.t('tui.pilot.sessions.hint')}
      </Text>
    </PaneFrame>
  );
}

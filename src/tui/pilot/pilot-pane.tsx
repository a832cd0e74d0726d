import { Text, useInput, type Key } from 'ink';
import { useEffect, useState, useSyncExternalStore, type ReactElement } from 'react';
import { fileAccessRequest } from '../actions/access-flow.js';
import { actionFor, type ActionName } from '../core/key-map.js';
import { useShell, type Shell } from '../core/shell.js';
import type { PilotFocus, SidePane } from '../core/side-pane.js';
import { useTextInput } from '../components/use-text-input.js';
import { PilotApi } from './pilot-api.js';
import { PilotChat } from './pilot-chat.js';
import { PilotView } from './pilot-view.js';
import { SessionList } from './session-list.js';
import { accessTool, waitingTool, type ToolEntry, type Transcript } from './transcript.js';

/** The service's default approval timeout (`authorization.tool_approval.timeout`); the countdown shows it ticking. */
const approvalTimeoutMs = 30_000;

type Mode = 'chat' | 'ask' | 'sessions';

interface PaneProps {
  height: number;
  width: number;
  active: boolean;
  close(): void;
  chat(shell: Shell): PilotChat;
}

/** The AI pilot as the terminal UI's side pane, opened and closed with `a`; the conversation outlives the pane. */
export function aiPilotPane(): SidePane {
  let chat: PilotChat | undefined;
  let pending: PilotFocus | undefined;
  const chatOf = (shell: Shell): PilotChat => {
    if (chat) return chat;
    chat = new PilotChat(new PilotApi(shell.api.client));
    if (pending) chat.focusOn(pending);
    pending = undefined;
    return chat;
  };
  const focus = (next: PilotFocus): void => {
    if (chat) chat.focusOn(next);
    else pending = next;
  };
  return { key: 'a', render: (size) => <PilotPane {...size} chat={chatOf} />, focus };
}

/** Now, once a second while a tool call waits (the countdown). */
function useTicking(ticking: boolean): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!ticking) return undefined;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}

const toolIds = (transcript: Transcript): string[] => transcript.entries.filter((entry): entry is ToolEntry => entry.kind === 'tool').map((entry) => entry.id);

/** The selected tool call after j/k (undefined: follow the newest line). */
function moved(ids: string[], selected: string | undefined, step: number): string | undefined {
  if (ids.length === 0) return undefined;
  const at = selected === undefined ? ids.length : ids.indexOf(selected);
  const next = at + step;
  return next >= ids.length ? undefined : ids[Math.max(0, next)];
}

const step = (input: string, key: Key): number => (key.downArrow || input === 'j' ? 1 : key.upArrow || input === 'k' ? -1 : 0);

function AskLine(props: { active: boolean; label: string; initial?: string; onSubmit(text: string): void; onCancel(): void }): ReactElement {
  const { value } = useTextInput(props.active, props.initial ?? '', { onSubmit: props.onSubmit, onCancel: props.onCancel });
  return (
    <Text color="yellow" wrap="truncate">
      {props.label} <Text color="white">{value}</Text>
      <Text inverse> </Text>
    </Text>
  );
}

function PilotPane(props: PaneProps): ReactElement {
  const shell = useShell();
  const chat = props.chat(shell);
  const transcript = useSyncExternalStore(chat.subscribe, chat.snapshot);
  const [mode, setMode] = useState<Mode>('chat');
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const now = useTicking(waitingTool(transcript) !== undefined);
  useEffect(() => () => shell.setCapturing(false), []);
  const switchMode = (next: Mode): void => {
    shell.setCapturing(next === 'ask');
    setMode(next);
  };
  const focused = chat.focus();
  // A finding put in context (the `:problems` view's ask key) starts a question about it.
  useEffect(() => {
    if (focused) switchMode('ask');
  }, [focused?.round]);
  const about = focused ? `[${focused.focus.label}] ` : '';
  // The finding's question starts the first ask line after it was put in context, not every later one.
  const [askedRound, setAskedRound] = useState(0);
  const draft = focused && focused.round !== askedRound ? focused.focus.question : undefined;
  const decide = (approved: boolean): void => {
    chat.decide(approved).then((found) => (found ? undefined : shell.notice(shell.t('tui.pilot.nothingWaiting'))), shell.report);
  };
  const requestAccess = (): void => {
    const tool = accessTool(transcript, selected);
    if (!tool?.accessNeeded) return shell.notice(shell.t('tui.pilot.noAccessNeeded'));
    fileAccessRequest(shell, tool.accessNeeded).then((request) => (request ? chat.filed(tool.id, request) : undefined), shell.report);
  };
  const toggle = (): void => {
    const id = selected ?? toolIds(transcript).at(-1);
    if (!id) return;
    const next = new Set(expanded);
    if (!next.delete(id)) next.add(id);
    setExpanded(next);
  };
  const handlers: Partial<Record<ActionName, () => void>> = {
    ask: () => switchMode('ask'),
    approve: () => decide(true),
    reject: () => decide(false),
    expand: toggle,
    sessions: () => switchMode('sessions'),
    newChat: () => (chat.reset(), setSelected(undefined)),
    requestAccess,
  };
  useInput(
    (input, key) => {
      if (key.escape) return props.close();
      const direction = step(input, key);
      if (direction !== 0) return setSelected(moved(toolIds(transcript), selected, direction));
      const action = actionFor('pilot', { readonly: shell.readonly }, input, key);
      if (action) handlers[action]?.();
    },
    { isActive: props.active && mode === 'chat' },
  );
  if (mode === 'sessions')
    return (
      <SessionList
        load={chat.sessions}
        width={props.width}
        height={props.height}
        active={props.active}
        t={shell.t}
        ascii={shell.ascii}
        onOpen={(id) => (setSelected(undefined), switchMode('chat'), void chat.open(id))}
        onBack={() => switchMode('chat')}
        onError={shell.report}
      />
    );
  const footer =
    mode === 'ask' ? (
      <AskLine
        key={focused?.round ?? 0}
        active={props.active}
        label={`${about}${shell.t('tui.pilot.ask')}`}
        initial={draft}
        onSubmit={(text) => (switchMode('chat'), setAskedRound(focused?.round ?? 0), text.trim() ? void chat.ask(text.trim(), shell.namespace) : undefined)}
        onCancel={() => switchMode('chat')}
      />
    ) : (
      <Text dimColor wrap="truncate">
        {about}
        {shell.t('tui.pilot.hint')}
      </Text>
    );
  return (
    <PilotView
      transcript={transcript}
      width={props.width}
      height={props.height}
      now={now}
      timeoutMs={approvalTimeoutMs}
      expanded={expanded}
      selected={selected}
      t={shell.t}
      ascii={shell.ascii}
      footer={footer}
    />
  );
}

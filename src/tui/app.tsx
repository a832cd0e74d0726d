import { Box, useApp, useInput, useWindowSize, type Key } from 'ink';
import { useEffect, useMemo, useRef, useState, type ReactElement } from 'react';
import type { PilothouseApi } from './api/pilothouse-api.js';
import type { ClientSession } from './api/client.js';
import type { ResourceKind } from './api/types.js';
import { errorLine } from '@pilothouse/wire/wire-client';
import { createTranslate, type Language, type Translate } from './core/i18n.js';
import { ShellContext, type Shell, type ViewState } from './core/shell.js';
import { Header } from './components/header.js';
import { Footer, type FooterMessage } from './components/footer.js';
import { Help } from './components/help.js';
import { CommandLine } from './components/command-line.js';
import { AskPrompt, ConfirmPrompt } from './components/prompts.js';
import { ViewBody, viewIdOf } from './views/view-body.js';
import { commandWords } from './core/completion.js';
import { globalAction, type ActionName, type ViewId } from './core/key-map.js';
import { runCommand } from './core/commands.js';
import { writeWithApproval } from './actions/access-flow.js';
import { useHeaderData } from './use-header-data.js';
import { useCluster } from './use-cluster.js';
import { ClusterPicker } from './components/cluster-picker.js';
import { useSignIn } from './use-sign-in.js';
import type { SignInBridge } from './sign-in.js';
import type { SidePane } from './core/side-pane.js';
import type { Modal } from './core/modal.js';
import { usePaneFocus } from './pilot/use-pane-focus.js';
import { useKeyPacing } from './components/key-pacing.js';

export interface AppProps {
  api: PilothouseApi;
  t: Translate;
  /** The kubeconfig context (embedded mode) or the service's address (remote mode). */
  context: string;
  readonly: boolean;
  ascii: boolean;
  /** The namespace to start in; undefined lists all namespaces (`-A`). */
  namespace: string | undefined;
  /** `--cluster NAME`: the cluster to start on (already set on the API client); undefined: the home cluster. */
  cluster?: string;
  /** Remote mode: the login prompt (at start when there is no session yet, and after a 401). */
  signIn?: { bridge: SignInBridge; baseUrl: string; username?: string; sso?: (show: (text: string) => void) => Promise<ClientSession>; atStart: boolean };
  /** A pane beside the table (the AI pilot), opened by its key. */
  sidePane?: SidePane;
  /** Called once the UI quits (q, :q, ctrl-c). */
  onQuit(): void;
}

const podsView: ViewState = { type: 'table', view: 'pods', resource: 'pods', title: 'pods', namespaced: true };

/** The application shell: header, view stack, footer, `:` command line, `?` help, prompts. */
export function App(props: AppProps): ReactElement {
  const { exit, suspendTerminal } = useApp();
  useKeyPacing();
  const { columns, rows } = useWindowSize();
  const [stack, setStack] = useState<ViewState[]>([podsView]);
  const [namespace, setNamespace] = useState(props.namespace);
  const [modal, setModal] = useState<Modal | undefined>(undefined);
  const [message, setMessage] = useState<FooterMessage | undefined>(undefined);
  const [capturing, setCapturing] = useState(false);
  const [kinds, setKinds] = useState<ResourceKind[]>([]);
  const [round, setRound] = useState(0);
  // `:lang ko` switches every string at once (the catalogue is read again for that language).
  const [language, setLanguage] = useState<Language | undefined>(undefined);
  const t = useMemo(() => (language ? createTranslate(language) : props.t), [language, props.t]);
  const modalRef = useRef(modal);
  modalRef.current = modal;
  // The ref follows at once (not at the next render), so keys typed between one prompt and the next never reach the view.
  const showModal = (next: Modal | undefined): void => {
    modalRef.current = next;
    setModal(next);
  };
  const prompt = <T,>(make: (resolve: (value: T) => void) => Modal): Promise<T> =>
    new Promise<T>((resolve) => showModal(make((value) => (showModal(undefined), resolve(value)))));
  const quit = (error?: Error): void => {
    props.onQuit();
    exit(error);
  };
  const report = (error: unknown): void => setMessage({ kind: 'error', text: errorLine(error) });
  const notice = (text: string): void => setMessage({ kind: 'notice', text });
  const restart = (): void => {
    setStack([podsView]);
    setKinds([]);
    setRound((value) => value + 1);
  };
  const pane = usePaneFocus(props.sidePane, columns, rows);
  const cluster = useCluster({ api: props.api, t, prompt, report, notice, switched: restart, fail: quit }, props.cluster);
  const base: Omit<Shell, 'write'> = {
    api: props.api,
    t: t,
    readonly: props.readonly,
    ascii: props.ascii,
    namespace,
    setNamespace: (next) => setNamespace(next),
    setLanguage: (next) => {
      setLanguage(next);
      setMessage({ kind: 'notice', text: createTranslate(next)('lang.switched') });
    },
    cluster: cluster.name,
    switchCluster: cluster.switchTo,
    push: (view) => setStack((current) => [...current, view]),
    pop: () => setStack((current) => (current.length > 1 ? current.slice(0, -1) : current)),
    report,
    notice,
    confirm: (question) => prompt<boolean>((resolve) => ({ kind: 'confirm', question, resolve })),
    ask: (label, initial) => prompt<string | undefined>((resolve) => ({ kind: 'ask', label, initial, resolve })),
    setCapturing,
    askPilot: (focus) => {
      if (!props.sidePane?.focus) return false;
      props.sidePane.focus(focus);
      pane.open();
      return true;
    },
    suspend: (work) => suspendTerminal(work),
  };
  const shell: Shell = { ...base, write: (work, scope) => writeWithApproval(base, work, scope, () => setRound((value) => value + 1)) };
  const signedIn = useSignIn(props.signIn, shell, prompt);
  const header = useHeaderData(props.api, signedIn, round);
  useEffect(() => {
    if (signedIn) cluster.check();
  }, [signedIn]);
  useEffect(() => {
    if (signedIn) props.api.kinds().then(setKinds, (error: unknown) => shell.report(error));
  }, [signedIn, cluster.epoch]);
  const showViews = signedIn && cluster.ready;
  const words = useMemo(() => commandWords(kinds), [kinds]);
  /** Runs a `:` line; a command typed before discovery arrived waits for it. */
  const command = async (line: string): Promise<void> => {
    const known = kinds.length > 0 ? kinds : await props.api.kinds().catch(() => []);
    if (known !== kinds) setKinds(known);
    if (runCommand(shell, line, known)) quit();
  };
  const top = stack.at(-1) ?? podsView;
  const globalHandlers: Partial<Record<ActionName, () => void>> = {
    command: () => (setMessage(undefined), setModal({ kind: 'command' })),
    help: () => setModal({ kind: 'help' }),
    requests: () => shell.push({ type: 'access-requests' }),
    back: () => (setMessage(undefined), shell.pop()),
    quit,
  };
  const onKey = (input: string, key: Key, action: ActionName | undefined): void => {
    if (modalRef.current || capturing || pane.handles(input, key, action)) return;
    if (action) globalHandlers[action]?.();
  };
  useInput((input, key) => {
    const action = globalAction(input, key);
    if (action === 'quit' && key.ctrl) return quit();
    if (modalRef.current?.kind === 'help') return closesHelp(action) ? setModal(undefined) : undefined;
    onKey(input, key, action);
  });
  const { bodyHeight, bodyWidth, paneWidth } = pane;
  const hint = t('tui.footer.hint');
  return (
    <ShellContext.Provider value={shell}>
      <Box flexDirection="column" width={columns} height={rows}>
        <Header t={t} context={props.context} cluster={cluster.name} namespace={namespace} readonly={props.readonly} {...header} />
        <Box borderStyle={props.ascii ? 'classic' : 'round'} borderColor="cyan" height={bodyHeight + 2} flexDirection="row">
          <Box flexDirection="column" width={bodyWidth} height={bodyHeight} overflow="hidden" display={pane.tableDisplay}>
            <Overlay modal={modal} view={pane.helpView(viewIdOf(top))} readonly={props.readonly} t={t} height={bodyHeight} />
            {showViews
              ? stack.map((state, index) => (
                  <Box key={`${cluster.epoch}-${index}`} display={index === stack.length - 1 && !overlay(modal) ? 'flex' : 'none'} flexDirection="column">
                    <ViewBody state={state} height={bodyHeight} width={bodyWidth} active={index === stack.length - 1 && !modal && pane.tableActive} />
                  </Box>
                ))
              : null}
          </Box>
          {pane.shown ? props.sidePane?.render({ height: bodyHeight, width: paneWidth, active: !modal && !pane.tableActive, close: pane.close }) : null}
        </Box>
        <FooterLine
          modal={modal}
          message={message}
          hint={hint}
          words={words}
          t={t}
          onCommand={(line) => (setModal(undefined), void command(line))}
          onCancel={() => setModal(undefined)}
        />
      </Box>
    </ShellContext.Provider>
  );
}

/** The overlays drawn in place of the view (help, the cluster picker). */
const overlay = (modal: Modal | undefined): boolean => modal?.kind === 'help' || modal?.kind === 'clusters';

function Overlay(props: { modal: Modal | undefined; view: ViewId; readonly: boolean; t: Translate; height: number }): ReactElement | null {
  const { modal } = props;
  if (modal?.kind === 'help') return <Help view={props.view} readonly={props.readonly} t={props.t} height={props.height} />;
  if (modal?.kind === 'clusters') return <ClusterPicker list={modal.list} current={modal.current} t={props.t} onPick={modal.resolve} />;
  return null;
}

const closesHelp = (action: ActionName | undefined): boolean => action === 'help' || action === 'back' || action === 'quit';

function FooterLine(props: {
  modal: Modal | undefined;
  message: FooterMessage | undefined;
  hint: string;
  words: string[];
  t: Translate;
  onCommand(line: string): void;
  onCancel(): void;
}): ReactElement {
  const { modal } = props;
  if (modal?.kind === 'confirm') return <ConfirmPrompt question={modal.question} yesNo={props.t('tui.confirm.yesNo')} onAnswer={modal.resolve} />;
  if (modal?.kind === 'ask') return <AskPrompt label={modal.label} initial={modal.initial} mask={modal.mask} error={modal.error} onAnswer={modal.resolve} />;
  if (modal?.kind === 'command') return <CommandLine words={props.words} onSubmit={props.onCommand} onCancel={props.onCancel} />;
  return <Footer message={props.message} hint={props.hint} />;
}

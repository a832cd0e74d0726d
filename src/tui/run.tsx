import { render } from 'ink';
import { ApiClient, type ClientSession } from './api/client.js';
import { PilothouseApi } from './api/pilothouse-api.js';
import { App } from './app.js';
import { createTranslate, type Language } from './core/i18n.js';
import { SignInBridge } from './sign-in.js';
import type { SidePane } from './core/side-pane.js';
import { aiPilotPane } from './pilot/pilot-pane.js';

export interface TerminalUiOptions {
  baseUrl: string;
  /** A session already in hand (`--token-file`, `--sso`); absent with `signIn` set: the login prompt comes first. */
  session?: ClientSession;
  /** Remote mode: where a 401 (or the start without a session) sends the user. */
  signIn?: { username?: string; sso?: (show: (text: string) => void) => Promise<ClientSession> };
  context: string;
  language: Language;
  ascii: boolean;
  readonly: boolean;
  namespace: string | undefined;
  /** `--cluster NAME`: the cluster to start on (an unknown name ends the UI with UnknownClusterError). */
  cluster?: string;
  sidePane?: SidePane;
  /** The embedded service's per-process token (sent on every request). */
  embedToken?: string;
}

/** The session's expiry when only the token is known (`--token-file`): GET /api/auth/me. */
async function withExpiry(api: PilothouseApi, session: ClientSession | undefined): Promise<void> {
  if (!session || session.expiresAt !== undefined) return;
  const me = await api.me().catch(() => undefined);
  if (me?.expires_at) api.client.useSession({ ...session, expiresAt: Date.parse(me.expires_at) });
}

/** Draws the terminal UI on the alternate screen until the user quits. */
export async function runTerminalUi(options: TerminalUiOptions): Promise<void> {
  const bridge = new SignInBridge();
  const client = new ApiClient(options.baseUrl, {
    session: options.session,
    signIn: options.signIn ? () => bridge.request() : undefined,
    embedToken: options.embedToken,
  });
  client.useCluster(options.cluster);
  const api = new PilothouseApi(client);
  await withExpiry(api, options.session);
  const signIn = options.signIn
    ? { bridge, baseUrl: options.baseUrl, username: options.signIn.username, sso: options.signIn.sso, atStart: !options.session }
    : undefined;
  const instance = render(
    <App
      api={api}
      t={createTranslate(options.language)}
      context={options.context}
      readonly={options.readonly}
      ascii={options.ascii}
      namespace={options.namespace}
      cluster={options.cluster}
      signIn={signIn}
      sidePane={options.sidePane ?? aiPilotPane()}
      onQuit={() => undefined}
    />,
    // A terminal is interactive even when CI is set in the environment (ink would then draw only the last frame).
    { alternateScreen: true, exitOnCtrlC: false, maxFps: 60, incrementalRendering: true, interactive: Boolean(process.stdout.isTTY) },
  );
  await instance.waitUntilExit();
}

import { useEffect, useState } from 'react';
import type { ClientSession } from './api/client.js';
import { errorLine } from '@pilothouse/wire/wire-client';
import { passwordLogin, type SignInBridge } from './sign-in.js';
import type { Modal } from './core/modal.js';
import type { Shell } from './core/shell.js';

type Prompt = <T>(make: (resolve: (value: T) => void) => Modal) => Promise<T>;

interface SignInOptions {
  bridge: SignInBridge;
  baseUrl: string;
  username?: string;
  /** `--sso`: the device sign-in (the footer shows where to go and the code) instead of a password. */
  sso?: (show: (text: string) => void) => Promise<ClientSession>;
  atStart: boolean;
}

/** `--sso`: signs in again with the device grant, the footer naming the address and code. */
async function ssoLogin(options: SignInOptions, shell: Shell): Promise<ClientSession | undefined> {
  try {
    const session = await options.sso!((text) => shell.notice(text));
    shell.api.client.useSession(session);
    return session;
  } catch (error) {
    shell.report(error);
    return undefined;
  }
}

/** What one round of the login prompt asks: the username (unless `--username` fixed it) and the password. */
interface LoginRound {
  username: string | undefined;
  askUsername: boolean;
  /** Why the last round was refused, shown on the prompts of this one (the footer line is taken by the prompt). */
  refused?: string;
}

/** One round's username and password; undefined when the user cancels (esc on a fixed username asks for another). */
async function askCredentials(round: LoginRound, shell: Shell, prompt: Prompt): Promise<{ username: string; password: string } | undefined> {
  const error = round.refused;
  if (round.askUsername) {
    const initial = round.username;
    round.username = await prompt<string | undefined>((resolve) => ({ kind: 'ask', label: shell.t('tui.login.username'), initial, error, resolve }));
    if (round.username === undefined) return undefined;
  }
  const password = await prompt<string | undefined>((resolve) => ({
    kind: 'ask',
    label: shell.t('tui.login.password'),
    mask: true,
    error: round.askUsername ? undefined : error,
    resolve,
  }));
  if (password !== undefined && round.username !== undefined) return { username: round.username, password };
  if (round.askUsername) return undefined;
  round.askUsername = true;
  round.refused = undefined;
  return askCredentials(round, shell, prompt);
}

/**
 * Asks the password (the username too, unless `--username` named it) until the service accepts them; a refusal
 * stays on the next prompt; undefined when the user cancels.
 */
async function loginLoop(options: SignInOptions, shell: Shell, prompt: Prompt): Promise<ClientSession | undefined> {
  if (options.sso) return ssoLogin(options, shell);
  const round: LoginRound = { username: options.username, askUsername: options.username === undefined };
  for (;;) {
    const credentials = await askCredentials(round, shell, prompt);
    if (!credentials) return undefined;
    try {
      const session = await passwordLogin(options.baseUrl, credentials.username, credentials.password);
      shell.api.client.useSession(session);
      shell.notice(shell.t('tui.login.welcome', { user: session.username, role: session.role }));
      return session;
    } catch (error) {
      round.refused = errorLine(error);
      shell.report(error);
    }
  }
}

/**
 * Remote mode's login prompt: at start (no session yet) and whenever the API answers 401 (the client
 * asks through the bridge). Returns whether a session is in place (always true without sign-in).
 */
export function useSignIn(options: SignInOptions | undefined, shell: Shell, prompt: Prompt): boolean {
  const [signedIn, setSignedIn] = useState(!options?.atStart);
  useEffect(() => {
    if (!options) return;
    options.bridge.attach(async () => {
      shell.report(new Error(shell.t('tui.login.expired')));
      return loginLoop(options, shell, prompt);
    });
    if (options.atStart)
      void loginLoop(options, shell, prompt).then((session) => (session ? setSignedIn(true) : shell.report(new Error(shell.t('tui.login.required')))));
  }, []);
  return signedIn;
}

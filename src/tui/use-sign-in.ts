import { useEffect, useState } from 'react';
import type { ClientSession } from './api/client.js';
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

/** Asks username and password (the password without echo) until the service accepts them; undefined when the user cancels. */
async function loginLoop(options: SignInOptions, shell: Shell, prompt: Prompt): Promise<ClientSession | undefined> {
  if (options.sso) return ssoLogin(options, shell);
  let username = options.username;
  for (;;) {
    username = await prompt<string | undefined>((resolve) => ({ kind: 'ask', label: shell.t('tui.login.username'), initial: username, resolve }));
    if (username === undefined) return undefined;
    const password = await prompt<string | undefined>((resolve) => ({ kind: 'ask', label: shell.t('tui.login.password'), mask: true, resolve }));
    if (password === undefined) return undefined;
    try {
      const session = await passwordLogin(options.baseUrl, username, password);
      shell.api.client.useSession(session);
      shell.notice(shell.t('tui.login.welcome', { user: session.username, role: session.role }));
      return session;
    } catch (error) {
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

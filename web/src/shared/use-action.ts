import { useState } from 'react';

/** State of a user action (a button press that calls the API): busy flag, last error, last message. */
export interface ActionState {
  busy: boolean;
  error: unknown;
  message: string;
  /** Runs `action`; its returned text becomes the message; `reload` runs after a success. */
  act(action: () => Promise<string>): Promise<void>;
  /** Clears the error (the notice's dismiss button). */
  dismiss(): void;
}

/** One way to run an action and show its outcome, shared by every page with action buttons. */
export function useAction(reload: () => void): ActionState {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [message, setMessage] = useState('');
  const act = async (action: () => Promise<string>): Promise<void> => {
    setBusy(true);
    setError(undefined);
    setMessage('');
    try {
      setMessage(await action());
      reload();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, message, act, dismiss: () => setError(undefined) };
}

import { useCallback, useState } from 'react';
import { useApi } from '../../shared/api-context';

/** Where a user's half-typed question is kept (localStorage, one entry per user). */
export const draftKey = (username: string): string => `pilothouse.chatDraft.${username}`;

function readDraft(key: string): string {
  try {
    return window.localStorage.getItem(key) ?? '';
  } catch {
    return '';
  }
}

/**
 * The pilot's composer text, kept in localStorage per user: a session that ends (expiry, revocation, a closed
 * tab) does not lose a half-typed question; signing in again as the same user brings it back. Sending clears it.
 * The user is the signed-in one (the panel is mounted anew for another user).
 */
export function useChatDraft(): [string, (text: string) => void] {
  const key = draftKey(useApi().current?.username ?? '');
  const [text, setText] = useState(() => readDraft(key));
  const update = useCallback(
    (next: string) => {
      setText(next);
      try {
        if (next) window.localStorage.setItem(key, next);
        else window.localStorage.removeItem(key);
      } catch {
        // storage unavailable: kept for this page only
      }
    },
    [key],
  );
  return [text, update];
}

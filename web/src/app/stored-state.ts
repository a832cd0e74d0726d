import { useCallback, useState } from 'react';

function read(key: string, fallback: string): string {
  try {
    return window.localStorage.getItem(key) ?? fallback;
  } catch {
    return fallback;
  }
}

/** A string UI preference kept in localStorage (namespace, panel open...). */
export function useStoredState(key: string, fallback: string): [string, (value: string) => void] {
  const [value, setValue] = useState(() => read(key, fallback));
  const update = useCallback(
    (next: string) => {
      setValue(next);
      try {
        window.localStorage.setItem(key, next);
      } catch {
        // storage unavailable: keep it for this page only
      }
    },
    [key],
  );
  return [value, update];
}

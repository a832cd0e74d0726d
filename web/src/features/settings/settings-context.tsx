import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import type { Language, UserSettings } from '@pilothouse/wire/types';
import { useApi } from '../../shared/api-context';

interface SettingsValue {
  settings: UserSettings | undefined;
  error: unknown;
  save: (changes: Partial<UserSettings>) => Promise<UserSettings>;
}

const SettingsContext = createContext<SettingsValue | null>(null);

/** The signed-in user's settings (`GET/PUT /api/settings`); reports the language to `onLanguage`. */
export function SettingsProvider({ onLanguage, children }: { onLanguage: (language: Language) => void; children: ReactNode }): ReactNode {
  const client = useApi();
  const [settings, setSettings] = useState<UserSettings>();
  const [error, setError] = useState<unknown>();

  useEffect(() => {
    const controller = new AbortController();
    client.call('GET', '/api/settings', { signal: controller.signal }).then(
      (loaded) => {
        setSettings(loaded);
        onLanguage(loaded.language);
      },
      (failure: unknown) => !controller.signal.aborted && setError(failure),
    );
    return () => controller.abort();
  }, [client, onLanguage]);

  const save = useCallback(
    async (changes: Partial<UserSettings>) => {
      const saved = await client.call('PUT', '/api/settings', { body: changes });
      setSettings(saved);
      onLanguage(saved.language);
      return saved;
    },
    [client, onLanguage],
  );

  return <SettingsContext.Provider value={{ settings, error, save }}>{children}</SettingsContext.Provider>;
}

export function useSettings(): SettingsValue {
  const value = useContext(SettingsContext);
  if (!value) throw new Error('useSettings outside SettingsProvider');
  return value;
}

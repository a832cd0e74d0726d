import { QueryClientProvider } from '@tanstack/react-query';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { ApiClient } from '../api/client';
import type { Language } from '@pilothouse/wire/types';
import { LoginPage, SessionCheck } from '../features/auth/LoginPage';
import { useSession } from '../features/auth/use-session';
import { SettingsProvider } from '../features/settings/settings-context';
import { dictionaries, I18nProvider } from '../i18n';
import { ApiProvider } from '../shared/api-context';
import { newQueryClient } from './ClusterScope';
import { Shell } from './Shell';
import { useStoredState } from './stored-state';

function Root(): ReactNode {
  const { session, ended, restoring } = useSession();
  const [stored, setStored] = useStoredState('pilothouse.language', 'en');
  const language: Language = stored in dictionaries ? (stored as Language) : 'en';
  const onLanguage = useCallback((next: Language) => setStored(next), [setStored]);
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);

  if (!session) {
    return <I18nProvider language={language}>{restoring ? <SessionCheck /> : <LoginPage ended={ended === 'logout' ? undefined : ended} />}</I18nProvider>;
  }
  return (
    <SettingsProvider key={session.username} onLanguage={onLanguage}>
      <I18nProvider language={language}>
        <Shell session={session} />
      </I18nProvider>
    </SettingsProvider>
  );
}

/** The whole web UI over one API client. */
export function App({ client }: { client: ApiClient }): ReactNode {
  // Data fetching and caching for pages: TanStack Query (live lists are pushed over SSE into its cache); the
  // signed-in pages get one cache per cluster (ClusterScope), this one serves the sign-in page.
  const [queries] = useState(newQueryClient);
  return (
    <ApiProvider client={client}>
      <QueryClientProvider client={queries}>
        <Root />
      </QueryClientProvider>
    </ApiProvider>
  );
}

import { createContext, useContext, type ReactNode } from 'react';
import type { ApiClient } from '../api/client';

const ApiContext = createContext<ApiClient | null>(null);

export function ApiProvider({ client, children }: { client: ApiClient; children: ReactNode }): ReactNode {
  return <ApiContext.Provider value={client}>{children}</ApiContext.Provider>;
}

/** The API client of the app (the only way features talk to the service). */
export function useApi(): ApiClient {
  const client = useContext(ApiContext);
  if (!client) throw new Error('useApi outside ApiProvider');
  return client;
}

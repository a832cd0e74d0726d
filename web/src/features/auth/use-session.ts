import { useCallback, useSyncExternalStore } from 'react';
import type { SessionView } from '../../api/client';
import { useApi } from '../../shared/api-context';

/** The signed-in session (null when signed out), why the last one ended, and whether it is still being looked up. */
export function useSession(): SessionView {
  const client = useApi();
  const subscribe = useCallback((changed: () => void) => client.subscribe(changed), [client]);
  return useSyncExternalStore(subscribe, () => client.view);
}

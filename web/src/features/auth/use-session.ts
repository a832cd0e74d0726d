import { useEffect, useState } from 'react';
import type { SessionEnd } from '../../api/client';
import type { Session } from '@pilothouse/wire/types';
import { useApi } from '../../shared/api-context';

/** The signed-in session (null when signed out) and why the last one ended. */
export function useSession(): { session: Session | null; ended: SessionEnd | undefined } {
  const client = useApi();
  const [state, setState] = useState<{ session: Session | null; ended: SessionEnd | undefined }>({ session: client.current, ended: undefined });
  useEffect(
    () => client.subscribe((session, ended) => setState((previous) => ({ session, ended: session ? undefined : (ended ?? previous.ended) }))),
    [client],
  );
  return state;
}

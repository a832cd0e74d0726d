import { useEffect, useState } from 'react';
import type { SessionEnd, SignedIn } from '../../api/client';
import { useApi } from '../../shared/api-context';

interface SessionView {
  session: SignedIn | null;
  ended: SessionEnd | undefined;
  /** Still asking the service whether this browser is signed in (a new tab, a reload). */
  restoring: boolean;
}

/** The signed-in session (null when signed out), why the last one ended, and whether it is still being looked up. */
export function useSession(): SessionView {
  const client = useApi();
  const [state, setState] = useState<SessionView>({ session: client.current, ended: undefined, restoring: client.restoring });
  useEffect(
    () =>
      client.subscribe((session, ended) =>
        setState((previous) => ({ session, ended: session ? undefined : (ended ?? previous.ended), restoring: client.restoring })),
      ),
    [client],
  );
  return state;
}

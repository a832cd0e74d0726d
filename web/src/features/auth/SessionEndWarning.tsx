import { useEffect, useState, type ReactNode } from 'react';
import { useT } from '../../i18n';
import { formatClock } from '../../shared/time';
import './session-warning.css';
import { useApi } from '../../shared/api-context';
import { useSession } from './use-session';

/** How long before the session's absolute end the warning shows. */
export const warningLeadMs = 5 * 60_000;

/** When the warning should show and what it says, for `endsAt` (ISO) at `now` (ms); undefined: not yet (or never). */
export function warningState(endsAt: string | null, now: number): { showAt: number; minutesLeft: number } | undefined {
  if (!endsAt) return undefined;
  const end = Date.parse(endsAt);
  if (Number.isNaN(end)) return undefined;
  return { showAt: end - warningLeadMs, minutesLeft: Math.max(0, Math.ceil((end - now) / 60_000)) };
}

/**
 * A warning before the session's absolute end (`authorization.jwt.max_session`, which no refresh extends): from
 * five minutes before, how many minutes are left and when it ends; the pilot keeps a half-typed question.
 */
export function SessionEndWarning({ endsAt }: { endsAt: string | null }): ReactNode {
  const t = useT();
  const [now, setNow] = useState(() => Date.now());
  const [dismissed, setDismissed] = useState(false);
  const state = warningState(endsAt, now);
  const showing = state !== undefined && now >= state.showAt;
  const showAt = state?.showAt;
  useEffect(() => {
    if (showAt === undefined) return undefined;
    // Wake at the warning's start, then every half minute to count down.
    const wait = showing ? 30_000 : showAt - now;
    const timer = window.setTimeout(() => setNow(Date.now()), Math.min(Math.max(wait, 1000), 2_147_000_000));
    return () => window.clearTimeout(timer);
  }, [showAt, showing, now]);
  if (!state || !showing || dismissed || !endsAt) return null;
  return (
    <div className="session-warning" role="alert">
      <span>{t('session.warning', { minutes: state.minutesLeft, time: formatClock(Date.parse(endsAt)) })}</span>
      <button type="button" className="topbar-button" onClick={() => setDismissed(true)}>
        {t('session.warning.dismiss')}
      </button>
    </div>
  );
}

/** Says that an admin changed the user's role while they were signed in (the UI already follows the new role). */
export function RoleChangeNotice(): ReactNode {
  const t = useT();
  const client = useApi();
  const { session, roleChangedFrom } = useSession();
  if (!session || !roleChangedFrom) return null;
  return (
    <div className="session-warning role-notice" role="alert">
      <span>{t('session.roleChanged', { from: roleChangedFrom, to: session.role })}</span>
      <button type="button" className="topbar-button" onClick={() => client.dismissRoleChange()}>
        {t('session.warning.dismiss')}
      </button>
    </div>
  );
}

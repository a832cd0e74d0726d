import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useApi } from '../../shared/api-context';
import type { SessionEnd } from '../../api/client';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import './login.css';

/** While a new tab or a reload asks the service whether the browser's session cookie still holds. */
export function SessionCheck(): ReactNode {
  const t = useT();
  return (
    <main className="login" aria-busy="true">
      <p className="muted" role="status">
        {t('session.checking')}
      </p>
    </main>
  );
}

/**
 * Sign-in form: `POST /api/auth/login` with `{username, password}` (`{password}` alone signs in admin). `ended` is
 * why the last session ended (the reason the service gave: revoked, role changed, expired, locked, disabled).
 */
export function LoginPage({ ended }: { ended?: Exclude<SessionEnd, 'logout'> }): ReactNode {
  const client = useApi();
  const t = useT();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  // Under SSO the service names the button and where it leads (public).
  const sso = useQuery({
    queryKey: ['auth', 'sso'],
    queryFn: () => client.call('GET', '/api/auth/sso'),
  });
  const offer = sso.data?.sso.enabled ? sso.data.sso : undefined;

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await client.login(username, password);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };

  return (
    <main className="login">
      <form className="login-card" onSubmit={(event) => void submit(event)} aria-labelledby="login-heading">
        <div className="brand brand-large" aria-hidden="true">
          <span className="brand-mark">⎈</span> Pilothouse
        </div>
        <h1 id="login-heading">{t('login.heading')}</h1>
        {ended && !error && (
          <p className="notice" role="status">
            {t(`session.ended.${ended}`)}
          </p>
        )}
        <ErrorNotice error={error} />
        {offer && (
          <>
            <a className="sso-button" href={offer.loginUrl}>
              {offer.buttonLabel}
            </a>
            <p className="muted small login-divider">{t('login.orPassword')}</p>
          </>
        )}
        <label className="field">
          <span>{t('login.username')}</span>
          <input name="username" autoComplete="username" value={username} onChange={(event) => setUsername(event.target.value)} placeholder="admin" autoFocus />
          <small>{t('login.usernameHint')}</small>
        </label>
        <label className="field">
          <span>{t('login.password')}</span>
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </label>
        <button type="submit" className="primary wide" disabled={busy || !password}>
          {busy ? t('login.busy') : t('login.submit')}
        </button>
      </form>
    </main>
  );
}

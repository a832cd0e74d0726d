import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import './login.css';

/** Sign-in form: `POST /api/auth/login` with `{username, password}` (`{password}` alone signs in admin). */
export function LoginPage({ expired }: { expired: boolean }): ReactNode {
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
        {expired && !error && (
          <p className="notice" role="status">
            {t('login.expired')}
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

import { useCallback, useState, type FormEvent, type ReactNode } from 'react';
import type { ListResponse } from '../../api/list';
import type { Role, User } from '../../api/types';
import { useApi } from '../../app/api-context';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { formatTime } from '../../shared/time';
import { useLoad } from '../../shared/use-load';
import { useAction } from '../../shared/use-action';

const roles: Role[] = ['viewer', 'user', 'admin'];
const emptyForm = { username: '', password: '', role: 'viewer' as Role, email: '' };

/** Users (`/api/admin/users`): list, create, lock and unlock (admins). */
export function UsersPage(): ReactNode {
  const client = useApi();
  const t = useT();
  const load = useCallback((signal: AbortSignal) => client.json<ListResponse<User>>('GET', '/api/admin/users', { signal }), [client]);
  const users = useLoad('users', load);
  const [form, setForm] = useState(emptyForm);

  const { busy, error, message, act, dismiss } = useAction(() => users.reload());

  const create = (event: FormEvent): void => {
    event.preventDefault();
    void act(async () => {
      const body = { username: form.username.trim(), password: form.password, role: form.role, ...(form.email.trim() ? { email: form.email.trim() } : {}) };
      await client.json('POST', '/api/admin/users', { body });
      setForm(emptyForm);
      return t('users.created.done', { username: body.username });
    });
  };
  const setLock = (user: User, locked: boolean): void =>
    void act(async () => {
      await client.json('POST', locked ? '/api/admin/lock' : '/api/admin/unlock', { body: { username: user.username } });
      return `${user.username}: ${locked ? t('users.locked') : t('users.unlocked')}`;
    });

  const items = users.data?.items ?? [];
  return (
    <section className="page" aria-labelledby="users-title">
      <div className="toolbar">
        <h1 id="users-title">{t('users.title')}</h1>
      </div>
      <ErrorNotice error={users.error ?? error} onDismiss={error ? dismiss : undefined} />
      {message && (
        <p className="notice notice-ok" role="status">
          {message}
        </p>
      )}
      <div className="table-wrap">
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{t('users.username')}</th>
              <th scope="col">{t('users.role')}</th>
              <th scope="col">{t('users.email')}</th>
              <th scope="col">{t('users.status')}</th>
              <th scope="col">{t('users.created')}</th>
              <th scope="col">{t('users.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((user) => (
              <tr key={user.username}>
                <td>{user.username}</td>
                <td>
                  <span className={`role role-${user.role}`}>{user.role}</span>
                </td>
                <td>{user.email ?? ''}</td>
                <td>
                  {user.enabled ? t('users.enabled') : t('users.disabled')}
                  {user.locked && <span className="badge badge-dangerous">{t('users.locked')}</span>}
                </td>
                <td className="nowrap">{formatTime(user.created_at)}</td>
                <td>
                  <button type="button" className="small-button" disabled={busy} onClick={() => setLock(user, !user.locked)}>
                    {user.locked ? t('users.unlock') : t('users.lock')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <form className="card form-grid" onSubmit={create} aria-labelledby="create-user-title">
        <h2 id="create-user-title">{t('users.create')}</h2>
        <label className="field">
          <span>{t('users.username')}</span>
          <input required value={form.username} onChange={(event) => setForm({ ...form, username: event.target.value })} />
        </label>
        <label className="field">
          <span>{t('users.password')}</span>
          <input required type="password" minLength={8} autoComplete="new-password" value={form.password} onChange={(event) => setForm({ ...form, password: event.target.value })} />
        </label>
        <label className="field">
          <span>{t('users.role')}</span>
          <select value={form.role} onChange={(event) => setForm({ ...form, role: event.target.value as Role })}>
            {roles.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('users.email')}</span>
          <input type="email" value={form.email} onChange={(event) => setForm({ ...form, email: event.target.value })} />
        </label>
        <div>
          <button type="submit" className="primary" disabled={busy}>
            {t('users.create')}
          </button>
        </div>
      </form>
    </section>
  );
}

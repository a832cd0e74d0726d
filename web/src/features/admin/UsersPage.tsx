import { useState, type FormEvent, type ReactNode } from 'react';
import { SelectField } from '../../shared/SelectField';
import type { Role, User } from '@pilothouse/wire/types';
import { useApi } from '../../shared/api-context';
import { useT, type Translate } from '../../i18n';
import { DataTable, type Column } from '../../shared/DataTable';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { formatTime } from '../../shared/time';
import { useApiQuery } from '../../shared/use-api-query';
import { useAction } from '../../shared/use-action';

const roles: Role[] = ['viewer', 'user', 'admin'];
const emptyForm = { username: '', password: '', role: 'viewer' as Role, email: '' };

/** The users table's columns; the last holds the Lock/Unlock button. */
function userColumns(t: Translate, { busy, onLock }: { busy: boolean; onLock: (user: User, locked: boolean) => void }): Column<User>[] {
  return [
    { key: 'username', header: t('users.username'), cell: (user) => user.username, sortValue: (user) => user.username },
    {
      key: 'role',
      header: t('users.role'),
      cell: (user) => <span className={`role role-${user.role}`}>{user.role}</span>,
      sortValue: (user) => roles.indexOf(user.role),
    },
    { key: 'email', header: t('users.email'), cell: (user) => user.email ?? '', sortValue: (user) => user.email ?? undefined },
    {
      key: 'status',
      header: t('users.status'),
      cell: (user) => (
        <>
          {user.enabled ? t('users.enabled') : t('users.disabled')}
          {user.locked && <span className="badge badge-dangerous">{t('users.locked')}</span>}
        </>
      ),
    },
    { key: 'created', header: t('users.created'), cell: (user) => formatTime(user.createdAt), className: 'nowrap', sortValue: (user) => user.createdAt },
    {
      key: 'actions',
      header: t('users.actions'),
      cell: (user) => (
        <button type="button" className="small-button" disabled={busy} onClick={() => onLock(user, !user.locked)}>
          {user.locked ? t('users.unlock') : t('users.lock')}
        </button>
      ),
    },
  ];
}

/** Users (`/api/admin/users`): list, create, lock and unlock (admins). */
export function UsersPage(): ReactNode {
  const client = useApi();
  const t = useT();
  const users = useApiQuery('/api/admin/users');
  const [form, setForm] = useState(emptyForm);

  const { busy, error, message, act, dismiss } = useAction(() => void users.refetch());

  const create = (event: FormEvent): void => {
    event.preventDefault();
    void act(async () => {
      const body = { username: form.username.trim(), password: form.password, role: form.role, ...(form.email.trim() ? { email: form.email.trim() } : {}) };
      await client.call('POST', '/api/admin/users', { body });
      setForm(emptyForm);
      return t('users.created.done', { username: body.username });
    });
  };
  const setLock = (user: User, locked: boolean): void =>
    void act(async () => {
      await client.call('POST', locked ? '/api/admin/lock' : '/api/admin/unlock', { body: { username: user.username } });
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
      <DataTable columns={userColumns(t, { busy, onLock: setLock })} rows={items} rowKey={(user) => user.username} />
      <form className="card form-grid" onSubmit={create} aria-labelledby="create-user-title">
        <h2 id="create-user-title">{t('users.create')}</h2>
        <label className="field">
          <span>{t('users.username')}</span>
          <input required value={form.username} onChange={(event) => setForm({ ...form, username: event.target.value })} />
        </label>
        <label className="field">
          <span>{t('users.password')}</span>
          <input
            required
            type="password"
            minLength={8}
            autoComplete="new-password"
            value={form.password}
            onChange={(event) => setForm({ ...form, password: event.target.value })}
          />
        </label>
        <SelectField label={t('users.role')} value={form.role} options={roles} onValue={(role) => setForm({ ...form, role })} />
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

import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useApi } from '../../shared/api-context';
import { Link } from '../../shared/router';
import { useT } from '../../i18n';
import { DataTable, type Column } from '../../shared/DataTable';
import { useAction } from '../../shared/use-action';
import { ActionNotices } from '../layout/ActionNotices';
import { useApiQuery } from '../../shared/use-api-query';
import type { Repository } from './helm-types';
import '../layout/pages.css';

const listPath = '/api/helm/repositories';

/** Chart repositories (admin): add, update the index, remove. */
export function HelmRepositoriesPage(): ReactNode {
  const t = useT();
  const client = useApi();
  const queries = useQueryClient();
  const repositories = useApiQuery(listPath);
  const action = useAction(() => void queries.invalidateQueries({ queryKey: [listPath] }));
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const add = (event: FormEvent): void => {
    event.preventDefault();
    void action.act(async () => {
      await client.call('POST', listPath, { body: { name: name.trim(), url: url.trim() } });
      setName('');
      setUrl('');
      return t('helm.repoAdded', { name: name.trim() });
    });
  };
  // Everyone may list the repositories; only admins change them.
  const isAdmin = client.current?.role === 'admin';
  const allColumns: Column<Repository>[] = [
    { key: 'name', header: t('helm.name'), cell: (row) => row.name, sortValue: (row) => row.name },
    { key: 'url', header: t('helm.repoUrl'), cell: (row) => <span className="mono small">{row.url}</span> },
    {
      key: 'actions',
      header: t('helm.actions'),
      cell: (row) => (
        <span className="row-actions">
          <button
            type="button"
            className="small-button"
            disabled={action.busy}
            aria-label={t('helm.repoUpdateNamed', { name: row.name })}
            onClick={() =>
              void action.act(
                async () => (
                  await client.call('POST', '/api/helm/repositories/update', { body: { names: [row.name] } }),
                  t('helm.repoUpdated', { name: row.name })
                ),
              )
            }
          >
            {t('helm.repoUpdate')}
          </button>
          <button
            type="button"
            className="small-button danger"
            disabled={action.busy}
            aria-label={t('helm.repoRemoveNamed', { name: row.name })}
            onClick={() =>
              void action.act(
                async () => (
                  await client.call('DELETE', '/api/helm/repositories/{name}', { path: { name: row.name } }),
                  t('helm.repoRemoved', { name: row.name })
                ),
              )
            }
          >
            {t('helm.repoRemove')}
          </button>
        </span>
      ),
    },
  ];
  const columns = isAdmin ? allColumns : allColumns.filter((column) => column.key !== 'actions');
  return (
    <section className="page" aria-labelledby="repos-title">
      <div className="toolbar">
        <Link to="/helm">{t('helm.back')}</Link>
        <h1 id="repos-title">{t('helm.repositoriesTitle')}</h1>
      </div>
      {isAdmin && (
        <form className="card page-section form-row" onSubmit={add} aria-label={t('helm.repoAdd')}>
          <label className="field">
            <span>{t('helm.name')}</span>
            <input value={name} onChange={(event) => setName(event.target.value)} required pattern="[a-z0-9]([\-a-z0-9_]*[a-z0-9])?" />
          </label>
          <label className="field">
            <span>{t('helm.repoUrl')}</span>
            <input type="url" value={url} onChange={(event) => setUrl(event.target.value)} required />
          </label>
          <button type="submit" className="primary" disabled={action.busy}>
            {t('helm.repoAdd')}
          </button>
        </form>
      )}
      <ActionNotices action={action} error={repositories.error} />
      {repositories.data && repositories.data.items.length === 0 && <p className="muted pad">{t('helm.noRepositories')}</p>}
      {repositories.data && repositories.data.items.length > 0 && (
        <DataTable columns={columns} rows={repositories.data.items} rowKey={(row) => row.name} caption={t('helm.repositoriesTitle')} />
      )}
    </section>
  );
}

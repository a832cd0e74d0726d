import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useApi } from '../../shared/api-context';
import { Link } from '../../shared/router';
import { useT } from '../../i18n';
import type { Column } from '../../shared/DataTable';
import { ListTable } from '../../shared/ListTable';
import { RowButton } from '../../shared/RowButton';
import { TextField } from '../../shared/TextField';
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
  const run = (call: () => Promise<unknown>, done: string) => (): void => void action.act(async () => (await call(), done));
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
          <RowButton
            label={t('helm.repoUpdate')}
            name={t('helm.repoUpdateNamed', { name: row.name })}
            disabled={action.busy}
            onClick={run(
              () => client.call('POST', '/api/helm/repositories/update', { body: { names: [row.name] } }),
              t('helm.repoUpdated', { name: row.name }),
            )}
          />
          <RowButton
            label={t('helm.repoRemove')}
            name={t('helm.repoRemoveNamed', { name: row.name })}
            danger
            disabled={action.busy}
            onClick={run(() => client.call('DELETE', '/api/helm/repositories/{name}', { path: { name: row.name } }), t('helm.repoRemoved', { name: row.name }))}
          />
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
          <TextField label={t('helm.name')} value={name} onValue={setName} required pattern="[a-z0-9]([\-a-z0-9_]*[a-z0-9])?" />
          <TextField label={t('helm.repoUrl')} type="url" value={url} onValue={setUrl} required />
          <button type="submit" className="primary" disabled={action.busy}>
            {t('helm.repoAdd')}
          </button>
        </form>
      )}
      <ActionNotices action={action} error={repositories.error} />
      <ListTable
        columns={columns}
        rows={repositories.data?.items}
        empty={t('helm.noRepositories')}
        rowKey={(row) => row.name}
        caption={t('helm.repositoriesTitle')}
      />
    </section>
  );
}

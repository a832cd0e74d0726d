import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { ConfirmDialog } from '../../shared/ConfirmDialog';
import type { Column } from '../../shared/DataTable';
import { ListTable } from '../../shared/ListTable';
import { RowButton } from '../../shared/RowButton';
import { useAction } from '../../shared/use-action';
import { ActionNotices } from '../layout/ActionNotices';
import { useApiQuery } from '../../shared/use-api-query';
import { McpServerForm } from './McpServerForm';
import { bodyOf, draftOf, emptyDraft, type McpDraft, type McpServer } from './mcp-types';
import '../layout/pages.css';

const listPath = '/api/mcp/servers';
const phaseTone: Record<string, string> = { connected: 'tone-good', failed: 'tone-bad', connecting: 'tone-warn' };

function ToolsCell({ server }: { server: McpServer }): ReactNode {
  const t = useT();
  if (server.tools.length === 0) return <span className="muted">0</span>;
  return (
    <details>
      <summary>{t('mcp.toolCount', { count: server.tools.length })}</summary>
      <ul className="tool-names">
        {server.tools.map((tool) => (
          <li key={tool} className="mono">
            {tool}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** MCP servers (admin): status, last error, tools; add, edit, enable/disable, remove. */
export function McpServersPage(): ReactNode {
  const t = useT();
  const client = useApi();
  const queries = useQueryClient();
  const servers = useApiQuery(listPath, { refetchInterval: 5_000 });
  const reload = (): void => void queries.invalidateQueries({ queryKey: [listPath] });
  const action = useAction(reload);
  const [editing, setEditing] = useState<{ draft: McpDraft; existing: boolean }>();
  const [removing, setRemoving] = useState<McpServer>();

  const save = async (draft: McpDraft): Promise<void> => {
    const body = bodyOf(draft);
    if (editing?.existing) await client.call('PUT', '/api/mcp/servers/{name}', { path: { name: draft.name }, body });
    else await client.call('POST', listPath, { body: { name: draft.name.trim(), ...body } });
    setEditing(undefined);
    reload();
  };
  const toggle = (server: McpServer): Promise<void> =>
    action.act(async () => {
      await client.call('PATCH', '/api/mcp/servers/{name}', { path: { name: server.name }, body: { enabled: !server.enabled } });
      return t(server.enabled ? 'mcp.disabledDone' : 'mcp.enabledDone', { name: server.name });
    });
  const remove = (server: McpServer): Promise<void> =>
    action.act(async () => {
      await client.call('DELETE', '/api/mcp/servers/{name}', { path: { name: server.name } });
      setRemoving(undefined);
      return t('mcp.removed', { name: server.name });
    });

  // Everyone may see the servers; only admins change them.
  const isAdmin = client.current?.role === 'admin';
  const allColumns: Column<McpServer>[] = [
    { key: 'name', header: t('mcp.name'), cell: (server) => <strong>{server.name}</strong>, sortValue: (server) => server.name },
    {
      key: 'status',
      header: t('mcp.status'),
      cell: (server) => <span className={phaseTone[server.status.phase]}>{server.status.phase}</span>,
      sortValue: (server) => server.status.phase,
    },
    { key: 'tools', header: t('mcp.tools'), cell: (server) => <ToolsCell server={server} />, sortValue: (server) => server.tools.length },
    { key: 'error', header: t('mcp.lastError'), cell: (server) => <span className="small">{server.status.message ?? ''}</span> },
    { key: 'command', header: t('mcp.command'), cell: (server) => <span className="mono small">{[server.command, ...server.args].join(' ')}</span> },
    { key: 'source', header: t('mcp.source'), cell: (server) => server.source },
    {
      key: 'actions',
      header: t('mcp.actions'),
      cell: (server) => (
        <span className="row-actions">
          <RowButton
            label={t('mcp.edit')}
            name={t('mcp.editNamed', { name: server.name })}
            onClick={() => setEditing({ draft: draftOf(server), existing: true })}
          />
          <RowButton
            label={t(server.enabled ? 'mcp.disable' : 'mcp.enable')}
            name={t(server.enabled ? 'mcp.disableNamed' : 'mcp.enableNamed', { name: server.name })}
            disabled={action.busy}
            onClick={() => void toggle(server)}
          />
          <RowButton label={t('mcp.remove')} name={t('mcp.removeNamed', { name: server.name })} danger onClick={() => setRemoving(server)} />
        </span>
      ),
    },
  ];

  const columns = isAdmin ? allColumns : allColumns.filter((column) => column.key !== 'actions');
  return (
    <section className="page" aria-labelledby="mcp-title">
      <div className="toolbar">
        <h1 id="mcp-title">{t('mcp.title')}</h1>
        {isAdmin && (
          <button type="button" className="primary" onClick={() => setEditing({ draft: emptyDraft, existing: false })}>
            {t('mcp.addButton')}
          </button>
        )}
      </div>
      <p className="page-intro muted">{t('mcp.intro')}</p>
      {editing && (
        <McpServerForm key={editing.draft.name} initial={editing.draft} editing={editing.existing} onSubmit={save} onCancel={() => setEditing(undefined)} />
      )}
      <ActionNotices action={action} error={servers.error} />
      <ListTable
        columns={columns}
        rows={servers.data?.items}
        empty={t('mcp.empty')}
        rowKey={(server) => `${server.source}/${server.name}`}
        caption={t('mcp.title')}
      />
      {removing && (
        <ConfirmDialog
          title={t('mcp.removeTitle', { name: removing.name })}
          confirmLabel={t('mcp.remove')}
          cancelLabel={t('mcp.cancel')}
          danger
          busy={action.busy}
          onConfirm={() => void remove(removing)}
          onCancel={() => setRemoving(undefined)}
        >
          <p>{t('mcp.removeText')}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

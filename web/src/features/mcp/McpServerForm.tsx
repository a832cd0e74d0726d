import { useState, type FormEvent, type ReactNode } from 'react';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import type { McpDraft } from './mcp-types';

interface FormProps {
  initial: McpDraft;
  editing: boolean;
  onSubmit: (draft: McpDraft) => Promise<void>;
  onCancel: () => void;
}

/** Add or edit one MCP server: name (fixed when editing), command, one argument per line, KEY=value env lines. */
export function McpServerForm({ initial, editing, onSubmit, onCancel }: FormProps): ReactNode {
  const t = useT();
  const [draft, setDraft] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await onSubmit(draft);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const field = (key: keyof McpDraft) => (event: { target: { value: string } }) => setDraft({ ...draft, [key]: event.target.value });
  return (
    <form
      className="card form-grid mcp-form"
      onSubmit={(event) => void submit(event)}
      aria-label={editing ? t('mcp.editTitle', { name: draft.name }) : t('mcp.addTitle')}
    >
      <h2>{editing ? t('mcp.editTitle', { name: draft.name }) : t('mcp.addTitle')}</h2>
      <label className="field">
        <span>{t('mcp.name')}</span>
        <input value={draft.name} onChange={field('name')} required disabled={editing} pattern="[a-z0-9]([\-a-z0-9]*[a-z0-9])?" />
      </label>
      <label className="field">
        <span>{t('mcp.command')}</span>
        <input value={draft.command} onChange={field('command')} required placeholder="npx" />
      </label>
      <label className="field">
        <span>{t('mcp.args')}</span>
        <textarea value={draft.args} onChange={field('args')} rows={3} placeholder={'-y\n@modelcontextprotocol/server-everything'} />
      </label>
      <label className="field">
        <span>{t('mcp.env')}</span>
        <textarea value={draft.env} onChange={field('env')} rows={2} placeholder="API_TOKEN=…" />
      </label>
      <label className="field">
        <span>{t('mcp.description')}</span>
        <input value={draft.description} onChange={field('description')} />
      </label>
      <label className="checkbox-field">
        <input type="checkbox" checked={draft.enabled} onChange={(event) => setDraft({ ...draft, enabled: event.target.checked })} />
        <span>{t('mcp.enabled')}</span>
      </label>
      <ErrorNotice error={error} />
      <div className="dialog-actions">
        <button type="button" onClick={onCancel}>
          {t('mcp.cancel')}
        </button>
        <button type="submit" className="primary" disabled={busy}>
          {editing ? t('mcp.save') : t('mcp.add')}
        </button>
      </div>
    </form>
  );
}
